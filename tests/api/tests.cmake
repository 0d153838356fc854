# The request layer's tests (src/api); included from tests/CMakeLists.txt.
list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/acl_input_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/answer_buffers_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/error_response_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/form_limits_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/json_input_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/kept_versions_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/multipart_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/operation_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/ops/guard_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/ops/operation_table_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/params_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/properties_form_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/render_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/request_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/response_cache_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/state_lock_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/url_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/variant_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/web_policy_test.cc
)
include(${CMAKE_CURRENT_LIST_DIR}/auth/tests.cmake)
