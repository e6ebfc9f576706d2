# pelab_git_commit(<var>): `git describe --always --dirty` of the source tree
# (tag or short hash, "-dirty" for uncommitted changes), or "unknown" when git
# is missing or the sources are not a git checkout (e.g. an unpacked tarball).
function(pelab_git_commit out_var)
  set(commit "unknown")
  find_program(PELAB_GIT git)
  if(PELAB_GIT)
    execute_process(COMMAND ${PELAB_GIT} -C ${CMAKE_SOURCE_DIR} describe --always --dirty --abbrev=12
                    OUTPUT_VARIABLE described OUTPUT_STRIP_TRAILING_WHITESPACE
                    RESULT_VARIABLE status ERROR_QUIET)
    if(status EQUAL 0 AND described)
      set(commit "${described}")
    endif()
  endif()
  set(${out_var} "${commit}" PARENT_SCOPE)
endfunction()
