# Tests of src/metrics; included from tests/CMakeLists.txt.
list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/metrics_test.cc
)
