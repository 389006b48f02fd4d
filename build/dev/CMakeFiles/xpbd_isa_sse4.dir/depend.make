# Empty dependencies file for xpbd_isa_sse4.
# This may be replaced when dependencies are built.
