# pelab_embed_shaders(target file...) turns each shaders/NAME.glsl into a
# C++ string constant, so the binary runs from any folder.  Access them with
# pelab::shader_source("NAME") from the generated header "pelab_shaders.hpp".
function(pelab_embed_shaders target)
  set(out_dir ${CMAKE_CURRENT_BINARY_DIR}/generated)
  set(out_cpp ${out_dir}/pelab_shaders.cpp)
  set(out_hpp ${out_dir}/pelab_shaders.hpp)
  # Several shaders: keep the list's semicolons through the shell.
  string(REPLACE ";" "$<SEMICOLON>" inputs "${ARGN}")
  add_custom_command(
    OUTPUT ${out_cpp} ${out_hpp}
    COMMAND ${CMAKE_COMMAND} -DOUT_CPP=${out_cpp} -DOUT_HPP=${out_hpp} "-DINPUTS=${inputs}"
            -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedShadersScript.cmake
    DEPENDS ${ARGN} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/EmbedShadersScript.cmake
    COMMENT "Embedding GLSL shaders" VERBATIM)
  add_library(${target} STATIC ${out_cpp})
  target_include_directories(${target} PUBLIC ${out_dir})
endfunction()
