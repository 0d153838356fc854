# The model-based test (RapidCheck, Debian librapidcheck-dev): see model_test.cc.
list(APPEND FOLIO_TEST_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/model_test.cc
  ${CMAKE_CURRENT_LIST_DIR}/sut.cc
)
