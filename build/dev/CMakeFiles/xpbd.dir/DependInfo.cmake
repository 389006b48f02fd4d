
# Consider dependencies only in project.
set(CMAKE_DEPENDS_IN_PROJECT_ONLY OFF)

# The set of languages for which implicit dependencies are needed:
set(CMAKE_DEPENDS_LANGUAGES
  )

# The set of dependency files which are needed:
set(CMAKE_DEPENDS_DEPENDENCY_FILES
  "/work/main/kernels/src/isa.c" "CMakeFiles/xpbd.dir/kernels/src/isa.c.o" "gcc" "CMakeFiles/xpbd.dir/kernels/src/isa.c.o.d"
  "/work/main/kernels/src/lab1d.c" "CMakeFiles/xpbd.dir/kernels/src/lab1d.c.o" "gcc" "CMakeFiles/xpbd.dir/kernels/src/lab1d.c.o.d"
  "/work/main/kernels/src/scalar/reference.c" "CMakeFiles/xpbd.dir/kernels/src/scalar/reference.c.o" "gcc" "CMakeFiles/xpbd.dir/kernels/src/scalar/reference.c.o.d"
  "/work/main/kernels/src/soa.c" "CMakeFiles/xpbd.dir/kernels/src/soa.c.o" "gcc" "CMakeFiles/xpbd.dir/kernels/src/soa.c.o.d"
  "/work/main/kernels/src/status.c" "CMakeFiles/xpbd.dir/kernels/src/status.c.o" "gcc" "CMakeFiles/xpbd.dir/kernels/src/status.c.o.d"
  "/work/main/kernels/src/step.c" "CMakeFiles/xpbd.dir/kernels/src/step.c.o" "gcc" "CMakeFiles/xpbd.dir/kernels/src/step.c.o.d"
  )

# Targets to which this target links.
set(CMAKE_TARGET_LINKED_INFO_FILES
  )

# Fortran module output directory.
set(CMAKE_Fortran_TARGET_MODULE_DIR "")
