#----------------------------------------------------------------
# Generated CMake target import file for configuration "RelWithDebInfo".
#----------------------------------------------------------------

# Commands may need to know the format version.
set(CMAKE_IMPORT_FILE_VERSION 1)

# Import target "xpbd::xpbd" for configuration "RelWithDebInfo"
set_property(TARGET xpbd::xpbd APPEND PROPERTY IMPORTED_CONFIGURATIONS RELWITHDEBINFO)
set_target_properties(xpbd::xpbd PROPERTIES
  IMPORTED_LINK_INTERFACE_LANGUAGES_RELWITHDEBINFO "C"
  IMPORTED_LOCATION_RELWITHDEBINFO "${_IMPORT_PREFIX}/lib/libxpbd.a"
  )

list(APPEND _cmake_import_check_targets xpbd::xpbd )
list(APPEND _cmake_import_check_files_for_xpbd::xpbd "${_IMPORT_PREFIX}/lib/libxpbd.a" )

# Commands beyond this point should not need to know the version.
set(CMAKE_IMPORT_FILE_VERSION)
