# HTTP-level tests (src/http + src/api over loopback); included from tests/CMakeLists.txt.
list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/levels_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/objects_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/errors_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/seed_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/serve_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/connections_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/head_parser_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/body_framer_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/limits_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/operations_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/request_log_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/response_cache_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/versioning_states_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/versioning_failures_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/newcomer_test.cc
)
