list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/check_in_plan_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/check_out_plan_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/versioning_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/version_label_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/version_list_test.cc
)
