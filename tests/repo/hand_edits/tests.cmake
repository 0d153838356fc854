list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/adopted_docs_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/adoption_table_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/vanished_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/folder_markers_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/reconciler_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/logged_objects_test.cc
)
