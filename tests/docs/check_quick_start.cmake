# The README's quick start is the marked region of a tutorial that CTest
# compiles and runs. This check fails when the two differ.
#   cmake -DREADME=README.md -DSOURCE=examples/tutorial/01_quick_start/main.cpp -P check_quick_start.cmake
# The README holds the region between the lines
#   <!-- quick-start: examples/tutorial/01_quick_start/main.cpp -->
#   <!-- quick-start end -->
# inside a ```cpp fence; the source holds it between "// [quick-start]" and
# "// [quick-start-end]", indented as the code is (the README drops the
# common indentation).

# A file as a CMake list of its lines. Semicolons, CMake's list separator,
# are carried as the placeholder "<semicolon>" and put back at the end.
function(read_lines path out)
  file(READ "${path}" _text)
  string(REPLACE "\r" "" _text "${_text}")
  string(REPLACE ";" "<semicolon>" _text "${_text}")
  string(REPLACE "[" "<open>" _text "${_text}")
  string(REPLACE "]" "<close>" _text "${_text}")
  string(REPLACE "\n" ";" _lines "${_text}")
  set(${out} "${_lines}" PARENT_SCOPE)
endfunction()

# Lines strictly between the first line matching begin and the next matching end.
function(region lines begin end out)
  set(_inside OFF)
  set(_found OFF)
  set(_region "")
  foreach(_line IN LISTS lines)
    if(_inside)
      if(_line MATCHES "${end}")
        set(_found ON)
        break()
      endif()
      list(APPEND _region "${_line}")
    elseif(_line MATCHES "${begin}")
      set(_inside ON)
    endif()
  endforeach()
  if(NOT _found)
    message(FATAL_ERROR "quick start: no region between '${begin}' and '${end}'")
  endif()
  set(${out} "${_region}" PARENT_SCOPE)
endfunction()

read_lines("${SOURCE}" _source)
region("${_source}" "^[ \t]*// <open>quick-start<close>[ \t]*$" "^[ \t]*// <open>quick-start-end<close>[ \t]*$" _code)
# Common indentation of the non-empty lines.
set(_indent 1000)
foreach(_line IN LISTS _code)
  if(_line MATCHES "^( *)[^ ]")
    string(LENGTH "${CMAKE_MATCH_1}" _n)
    if(_n LESS _indent)
      set(_indent ${_n})
    endif()
  endif()
endforeach()
set(_expected "")
foreach(_line IN LISTS _code)
  string(LENGTH "${_line}" _length)
  if(_length GREATER _indent)
    string(SUBSTRING "${_line}" ${_indent} -1 _line)
  else()
    set(_line "")
  endif()
  string(APPEND _expected "${_line}\n")
endforeach()

read_lines("${README}" _readme)
region("${_readme}" "^<!-- quick-start: " "^<!-- quick-start end -->" _block)
set(_shown "")
foreach(_line IN LISTS _block)
  if(NOT _line MATCHES "^```")
    string(APPEND _shown "${_line}\n")
  endif()
endforeach()

foreach(_text _shown _expected)
  string(REPLACE "<semicolon>" ";" ${_text} "${${_text}}")
  string(REPLACE "<open>" "[" ${_text} "${${_text}}")
  string(REPLACE "<close>" "]" ${_text} "${${_text}}")
endforeach()
if(NOT _shown STREQUAL _expected)
  message(FATAL_ERROR "The README's quick start differs from the marked region of ${SOURCE}. "
                      "Put this between the README's quick-start markers (inside a ```cpp fence):\n${_expected}")
endif()
message(STATUS "README quick start matches ${SOURCE}")
