# folio::testing::Server (src/testing); included from tests/CMakeLists.txt.
list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/server_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/server_example_test.cc
)
