file(REMOVE_RECURSE
  "CMakeFiles/xpbd.dir/kernels/src/isa.c.o"
  "CMakeFiles/xpbd.dir/kernels/src/isa.c.o.d"
  "CMakeFiles/xpbd.dir/kernels/src/lab1d.c.o"
  "CMakeFiles/xpbd.dir/kernels/src/lab1d.c.o.d"
  "CMakeFiles/xpbd.dir/kernels/src/scalar/reference.c.o"
  "CMakeFiles/xpbd.dir/kernels/src/scalar/reference.c.o.d"
  "CMakeFiles/xpbd.dir/kernels/src/soa.c.o"
  "CMakeFiles/xpbd.dir/kernels/src/soa.c.o.d"
  "CMakeFiles/xpbd.dir/kernels/src/status.c.o"
  "CMakeFiles/xpbd.dir/kernels/src/status.c.o.d"
  "CMakeFiles/xpbd.dir/kernels/src/step.c.o"
  "CMakeFiles/xpbd.dir/kernels/src/step.c.o.d"
  "libxpbd.a"
  "libxpbd.pdb"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/xpbd.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
