# Tests of src/log (the log output and the request log); included from
# tests/CMakeLists.txt.
list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/request_log_test.cc
)
