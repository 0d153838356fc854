list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/children_cursor_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/record_reader_test.cc
)
