list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/fsck_clean_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_meta_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_records_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_series_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_robustness_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_accounts_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_query_index_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_live_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_events_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_folder_markers_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_adopted_test.cc
)
