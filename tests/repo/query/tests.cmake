# The query language and index (src/repo/query); included from tests/repo/tests.cmake.
list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/parser_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/like_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/text_search_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/text_extract_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/query_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/query_memory_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/catch_up_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/index_writer_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/scan_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/background_build_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/foreground_test.cc
)
