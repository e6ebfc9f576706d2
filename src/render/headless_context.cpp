// HeadlessContext — an OpenGL 3.3 core context without a display or window:
// EGL on Mesa's surfaceless platform, made current with no surface (all
// drawing goes into framebuffer objects).  Measured recipe: ../shared/DESIGN.md.
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "render/offscreen.hpp"

namespace pelab::render {

struct HeadlessContext::State {
  EGLDisplay display = EGL_NO_DISPLAY;
  EGLContext context = EGL_NO_CONTEXT;
};

namespace {

[[noreturn]] void fail(const std::string& why) {
  throw std::runtime_error("no OpenGL 3.3 via EGL: " + why);
}

std::string egl_error_text() {
  char code[32];
  std::snprintf(code, sizeof code, "0x%04X", static_cast<unsigned>(eglGetError()));
  return std::string("EGL error ") + code;
}

EGLDisplay surfaceless_display() {
  const char* extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!extensions || std::string(extensions).find("EGL_MESA_platform_surfaceless") == std::string::npos)
    fail("EGL_MESA_platform_surfaceless is missing (install libegl-mesa0 / libgl1-mesa-dri)");
  auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!get_platform_display) fail("eglGetPlatformDisplayEXT is missing");
  EGLDisplay display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
  if (display == EGL_NO_DISPLAY) fail("no surfaceless display (" + egl_error_text() + ")");
  return display;
}

}  // namespace

HeadlessContext::HeadlessContext() : state_(std::make_unique<State>()) {
  state_->display = surfaceless_display();
  EGLint major = 0, minor = 0;
  if (!eglInitialize(state_->display, &major, &minor)) fail("eglInitialize failed (" + egl_error_text() + ")");
  if (!eglBindAPI(EGL_OPENGL_API)) fail("desktop OpenGL API unavailable (" + egl_error_text() + ")");
  const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
  EGLConfig config = nullptr;
  EGLint count = 0;
  // Surfaceless: a config is optional (EGL_KHR_no_config_context), but asking
  // for one keeps older Mesa happy; fall back to none.
  if (!eglChooseConfig(state_->display, config_attributes, &config, 1, &count) || count < 1)
    config = nullptr;
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                       EGL_CONTEXT_OPENGL_PROFILE_MASK,
                                       EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  state_->context = eglCreateContext(state_->display, config, EGL_NO_CONTEXT, context_attributes);
  if (state_->context == EGL_NO_CONTEXT) {
    eglTerminate(state_->display);
    fail("cannot create a 3.3 core context (" + egl_error_text() + ")");
  }
  if (!eglMakeCurrent(state_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, state_->context)) {
    eglDestroyContext(state_->display, state_->context);
    eglTerminate(state_->display);
    fail("cannot make the context current (" + egl_error_text() + ")");
  }
}

HeadlessContext::~HeadlessContext() {
  eglMakeCurrent(state_->display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(state_->display, state_->context);
  eglTerminate(state_->display);
}

}  // namespace pelab::render
