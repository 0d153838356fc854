# Authentication (src/api/auth); included from tests/api/tests.cmake.
list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/credentials_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/throttle_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/authenticator_test.cc
)
