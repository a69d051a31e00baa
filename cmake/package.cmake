# Install rules and the Debian package: `cmake --build build --target package` writes
# gpunet-bench_<version>_amd64.deb into the build directory from the gpunet-bench built there. Layout under /usr:
#   bin/gpunet-bench                     the program
#   bin/gpunet-run                       link to share/gpunet-bench/launch/gpunet-run
#   share/gpunet-bench/launch/           gpunet-run, gpunet-bind, fakecluster, slurm/gpunet.sbatch, grafana/
#   share/gpunet-bench/schema/           report.json's JSON Schema
#   share/doc/gpunet-bench/              README, docs/, the spec format and example, the ceilings
# The launch scripts keep their layout, so gpunet-run finds gpunet-bind beside it and gpunet.sbatch
# finds launch/ two levels above itself, as in a checkout.
# `install` and `package` do not build the whole tree first (the tests): they pack what is built, so
# build gpunet-bench first (launch/quickstart, or --target gpunet-bench).
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
include(GNUInstallDirs)
set(gpunet_share ${CMAKE_INSTALL_DATADIR}/gpunet-bench)

# Libraries outside the system's directories (CUDA, NCCL and cuBLAS from NVIDIA's install, not from
# Debian) stay on the installed program's run path: the nodes have them at the same place.
set_target_properties(gpunet-bench PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
install(TARGETS gpunet-bench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/launch/ DESTINATION ${gpunet_share}/launch USE_SOURCE_PERMISSIONS
        PATTERN quickstart EXCLUDE)  # quickstart builds from a checkout
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/package)
file(CREATE_LINK ../share/gpunet-bench/launch/gpunet-run ${CMAKE_BINARY_DIR}/package/gpunet-run SYMBOLIC)
install(FILES ${CMAKE_BINARY_DIR}/package/gpunet-run DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/report/schema/report.schema.json DESTINATION ${gpunet_share}/schema)
install(FILES ${PROJECT_SOURCE_DIR}/README.md
              ${PROJECT_SOURCE_DIR}/ci/SPEC.md ${PROJECT_SOURCE_DIR}/ci/spec-example.json
              ${PROJECT_SOURCE_DIR}/ci/NIGHTLY.md
              ${PROJECT_SOURCE_DIR}/report/CEILINGS.md ${PROJECT_SOURCE_DIR}/report/training/TRAINING.md
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs FILES_MATCHING PATTERN "*.md")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpunet-bench)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "gpunet-bench maintainers <gpunet-bench@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU cluster network and PCIe benchmark with ceilings and verdicts")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # gpunet-bench_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The libraries the program links (Open MPI, hwloc, libnuma, OpenSSL, ibverbs, ...) are computed by
# dpkg-shlibdeps; listed by hand only what the scripts call: mpirun (gpunet-run), numactl (gpunet-bind).
# CUDA, NCCL and cuBLAS belong to no Debian package: CPack lets dpkg-shlibdeps pass over them
# (--ignore-missing-info), so a package built with CUDA expects NVIDIA's libraries on every node.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "openmpi-bin, numactl")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "openssh-client, hwloc")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "iproute2, util-linux, slurm-wlm")
include(CPack)
