file(REMOVE_RECURSE
  "libxpbd.a"
)
