# What makes a build from scratch fit a 2-core machine (the window within 5 minutes of a
# fresh clone, the tests within 10):
# - precompiled headers: the Qt and QCustomPlot headers nearly every file includes are parsed once
#   per library instead of once per file (they were about half of a small file's compile time);
# - unity builds of the libraries: eight files compiled as one, so the Qt templates they share are
#   instantiated and optimised once per eight files, not once per file.
# -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON -DGEMMSCOPE_UNITY_BUILD=OFF builds file by file, as an editor
# does: each file must still include what it uses, and names in anonymous namespaces must not
# collide within a library.
#
# gemmscope_kernels is Qt-free and gets neither.
option(GEMMSCOPE_UNITY_BUILD "Compile the libraries' files in batches of eight" ON)
set(GEMMSCOPE_PCH_QTCORE
  <QByteArray> <QHash> <QJsonArray> <QJsonDocument> <QJsonObject> <QJsonValue> <QList> <QObject>
  <QString> <QStringList> <QVariant> <algorithm> <functional> <memory> <optional> <vector>)
set(GEMMSCOPE_PCH_WIDGETS ${GEMMSCOPE_PCH_QTCORE}
  <QBoxLayout> <QComboBox> <QLabel> <QMenu> <QPainter> <QWidget> <qcustomplot.h>)

# gemmscope_build_fast(library QTCORE|WIDGETS): the library's own precompiled headers, in batches.
function(gemmscope_build_fast target set)
  target_precompile_headers(${target} PRIVATE ${GEMMSCOPE_PCH_${set}})
  if(GEMMSCOPE_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  endif()
endfunction()

# gemmscope_reuse_test_pch(test QTCORE|WIDGETS): the tests share one precompiled header per kind
# (built once, not once per test executable): QTEST_MAIN depends on whether Qt Widgets is linked,
# so a QtCore test cannot reuse a widget test's. The header is built for a small executable of its
# own, as a test is (GCC refuses a header built with -fPIC, as a library's is, in a file built
# with -fPIE), with a test's flags (one built without -Wpedantic is refused too).
function(gemmscope_reuse_test_pch test set)
  string(TOLOWER ${set} kind)
  set(pch gemmscope_test_pch_${kind})
  if(NOT TARGET ${pch})
    add_executable(${pch} ${PROJECT_SOURCE_DIR}/tests/support/pch_anchor.cpp)
    target_link_libraries(${pch} PRIVATE Qt6::Test gemmscope_warnings)
    if(set STREQUAL "WIDGETS")
      target_link_libraries(${pch} PRIVATE gemmscope_widgets) # QCustomPlot's headers and Qt Widgets
    endif()
    target_precompile_headers(${pch} PRIVATE ${GEMMSCOPE_PCH_${set}} <QtTest>)
  endif()
  target_precompile_headers(${test} REUSE_FROM ${pch})
endfunction()
