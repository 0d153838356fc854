list(APPEND FOLIO_TEST_SOURCES ${CMAKE_CURRENT_LIST_DIR}/crash_test.cc ${CMAKE_CURRENT_LIST_DIR}/change_log_crash_test.cc)
