# Empty dependencies file for xpbd_isa_avx512.
# This may be replaced when dependencies are built.
