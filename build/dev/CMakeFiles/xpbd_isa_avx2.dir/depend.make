# Empty dependencies file for xpbd_isa_avx2.
# This may be replaced when dependencies are built.
