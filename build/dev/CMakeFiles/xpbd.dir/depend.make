# Empty dependencies file for xpbd.
# This may be replaced when dependencies are built.
