file(REMOVE_RECURSE
  "CMakeFiles/xpbd_isa_avx512.dir/kernels/src/simd/kernels.c.o"
  "CMakeFiles/xpbd_isa_avx512.dir/kernels/src/simd/kernels.c.o.d"
)

# Per-language clean rules from dependency scanning.
foreach(lang C)
  include(CMakeFiles/xpbd_isa_avx512.dir/cmake_clean_${lang}.cmake OPTIONAL)
endforeach()
