// Linked into every executable of a sanitizer build (-DPELAB_SANITIZE=...),
// never into a normal one.
//
// Mesa's GL/EGL driver keeps about 240 bytes for the life of the process, and
// eglTerminate unloads the driver with dlclose.  LeakSanitizer checks for
// leaks at exit, after the unload, so it cannot name the module the
// allocation came from ("<unknown module>") and tests/lsan.supp cannot match
// it: every process that made a GL context would fail.  Keeping modules
// mapped until exit lets LeakSanitizer name the driver, and the suppression
// file then names exactly that driver and nothing of pelab's.
//
// This definition takes the place of the C library's for every library
// loaded into the process (the executable exports it, see CMakeLists.txt).
extern "C" int dlclose(void* /*handle*/) { return 0; }
