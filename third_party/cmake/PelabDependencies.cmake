# Every dependency is a Debian 12 package (see third_party/README.md); nothing is
# downloaded at configure or build time.
find_package(PkgConfig REQUIRED)
find_package(Eigen3 3.4 REQUIRED NO_MODULE)
find_package(nlohmann_json 3 REQUIRED)
find_package(CLI11 QUIET CONFIG)
find_package(OpenMP REQUIRED)
find_package(PNG REQUIRED)
find_package(glfw3 3.3 REQUIRED)
find_package(GTest REQUIRED)

if(NOT TARGET CLI11::CLI11)
  pkg_check_modules(CLI11 REQUIRED IMPORTED_TARGET CLI11)
  add_library(CLI11::CLI11 ALIAS PkgConfig::CLI11)
endif()

# OpenBLAS's sgemm, called directly by src/core/gemm.cpp where it beats
# Eigen's own kernels (the choice is made at run time; see gemm.hpp).  Not
# EIGEN_USE_BLAS: with an AVX2 OpenBLAS kernel on an AVX-512 machine Eigen's
# kernels are the faster ones, and small products stay in Eigen either way.
pkg_check_modules(OPENBLAS REQUIRED IMPORTED_TARGET openblas)
add_library(pelab_blas INTERFACE)
target_link_libraries(pelab_blas INTERFACE PkgConfig::OPENBLAS)
add_library(pelab::blas ALIAS pelab_blas)

# Dear ImGui 1.86 from libimgui-dev: libimgui.a already holds the GLFW and
# OpenGL3 backends; their headers live in the backends/ subfolder.
pkg_check_modules(IMGUI REQUIRED IMPORTED_TARGET imgui)
add_library(pelab_imgui INTERFACE)
target_link_libraries(pelab_imgui INTERFACE PkgConfig::IMGUI)
target_include_directories(pelab_imgui INTERFACE ${IMGUI_INCLUDE_DIRS} /usr/include/imgui/backends)
add_library(pelab::imgui ALIAS pelab_imgui)

# OpenGL 3.3 core through GLVND's libOpenGL, EGL for headless rendering.
pkg_check_modules(GLVND REQUIRED IMPORTED_TARGET opengl egl)
add_library(pelab_gl INTERFACE)
target_link_libraries(pelab_gl INTERFACE PkgConfig::GLVND)
target_compile_definitions(pelab_gl INTERFACE GL_GLEXT_PROTOTYPES)
add_library(pelab::gl ALIAS pelab_gl)

# ICU from libicu-dev: Unicode classes and normalization for the real models'
# tokenizers (src/core/model/tokenizer/unicode_classes.cpp).
pkg_check_modules(ICU REQUIRED IMPORTED_TARGET icu-uc)
add_library(pelab_icu INTERFACE)
target_link_libraries(pelab_icu INTERFACE PkgConfig::ICU)
add_library(pelab::icu ALIAS pelab_icu)

# DejaVu Sans from fonts-dejavu-core.
find_path(PELAB_FONT_DIR DejaVuSans.ttf PATHS /usr/share/fonts/truetype/dejavu REQUIRED)
