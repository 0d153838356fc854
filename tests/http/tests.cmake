# HTTP-level tests (src/http + src/api over loopback); included from tests/CMakeLists.txt.
list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/levels_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/objects_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/errors_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/seed_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/serve_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/connections_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/versioning_states_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/versioning_failures_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/auth_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/acl_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/serve_exposed_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/newcomer_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/query_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/navigation_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/types_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/changes_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/read_only_mount_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/hostile_disk_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/checkout_writes_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/two_servers_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/crash_http_test.cc
)
