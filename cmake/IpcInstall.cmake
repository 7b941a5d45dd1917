include(CMakePackageConfigHelpers)

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/ipc"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" FILES_MATCHING PATTERN "*.hpp")
install(TARGETS ipc EXPORT ipcTargets)
install(EXPORT ipcTargets NAMESPACE ipc::
        DESTINATION "${CMAKE_INSTALL_DATADIR}/ipc/cmake")

configure_package_config_file(
  "${PROJECT_SOURCE_DIR}/cmake/ipcConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/ipcConfig.cmake"
  INSTALL_DESTINATION "${CMAKE_INSTALL_DATADIR}/ipc/cmake")
# Header-only: the version file must not encode the architecture.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/ipcConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/ipcConfig.cmake"
              "${PROJECT_BINARY_DIR}/ipcConfigVersion.cmake"
        DESTINATION "${CMAKE_INSTALL_DATADIR}/ipc/cmake")
