list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/posix_fs_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fs_conformance_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fs_probe_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/mem_fs_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/journal_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/change_log_store_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/committer_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/spare_pool_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/change_set_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/layout_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/datetime_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/json_cache_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/utf8_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/json_text_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/overlay_fs_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/look_once_test.cc
)
