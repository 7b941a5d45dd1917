# ipc_write_if_changed(FILE CONTENT): writes CONTENT to FILE only when FILE
# is missing or holds something else, so that generated sources keep their
# time stamps (and nothing recompiles) when a reconfigure changes nothing.
function(ipc_write_if_changed file content)
  set(_old "")
  if(EXISTS "${file}")
    file(READ "${file}" _old)
  endif()
  if(NOT _old STREQUAL content)
    file(WRITE "${file}" "${content}")
  endif()
endfunction()
