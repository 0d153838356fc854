list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/inspect_model_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/inspect_render_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/inspect_accounts_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/fsck_output_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/folio_binary_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/data_dir_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/ephemeral_copy_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/malloc_tuning_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/serve_process_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/import_export_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/import_stable_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/tools_test.cc
)
