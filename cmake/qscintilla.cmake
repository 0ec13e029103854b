# QScintilla for Qt 6 (Debian's libqscintilla2-qt6-dev) ships a qmake feature file but no CMake
# config and no pkg-config file: its header and library are found here and offered as the imported
# target QScintilla::QScintilla, so the editor's library links it as it links any other.
find_path(QSCINTILLA_INCLUDE_DIR Qsci/qsciscintilla.h
  HINTS ${Qt6Core_INCLUDE_DIRS} ${Qt6_DIR}/../../../include
  PATH_SUFFIXES qt6 x86_64-linux-gnu/qt6 aarch64-linux-gnu/qt6)
find_library(QSCINTILLA_LIBRARY NAMES qscintilla2_qt6)
if(NOT QSCINTILLA_INCLUDE_DIR OR NOT QSCINTILLA_LIBRARY)
  message(FATAL_ERROR "GemmScope: QScintilla for Qt 6 not found (Debian: apt-get install "
                      "libqscintilla2-qt6-dev; scripts/setup.sh installs it)")
endif()
add_library(QScintilla::QScintilla SHARED IMPORTED)
set_target_properties(QScintilla::QScintilla PROPERTIES
  IMPORTED_LOCATION ${QSCINTILLA_LIBRARY}
  INTERFACE_INCLUDE_DIRECTORIES ${QSCINTILLA_INCLUDE_DIR}
  INTERFACE_LINK_LIBRARIES "Qt6::Widgets;Qt6::PrintSupport")
message(STATUS "GemmScope: QScintilla ${QSCINTILLA_LIBRARY}")
