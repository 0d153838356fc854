# Access control (src/repo/acl); included from tests/repo/tests.cmake.
list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/principals_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/decision_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/actions_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/ace_list_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/secrets_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/accounts_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/accounts_failure_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/set_acl_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/write_check_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/guarded_repository_test.cc
)
