list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/repository_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/versioning_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/all_versions_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/version_label_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/hand_added_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/change_log_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/vanished_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/folder_markers_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/failure_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/concurrency_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/robustness_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/read_only_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/damaged_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/record_reader_test.cc
)
include(${CMAKE_CURRENT_LIST_DIR}/acl/tests.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/query/tests.cmake)
