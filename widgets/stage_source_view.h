// The CUDA source of the selected stage, or its line diff from the previous stage in the ladder
// (the design's "show each stage's source and its diff from the previous stage"). The text is the
// copy embedded in the binary, i.e. exactly what the runner compiles with NVRTC.
#pragma once

#include "stage_catalog.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QRadioButton;
class QStackedWidget;

namespace gemmscope {

class StageSourceView : public QWidget {
    Q_OBJECT

public:
    enum class Mode { Source, Diff };

    explicit StageSourceView(QWidget *parent = nullptr);

    void setStage(StageId id);
    StageId stage() const { return m_stage; }
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }

    // What is on screen, for tests and exports: the header line, the text in the editor (the file,
    // or the diff with "+", "-" or " " before each line) and the sentence shown instead of any text
    // (cuBLAS, a file missing from the build; empty while text is shown).
    QString headerText() const;
    QString shownText() const;
    QString message() const;
    bool diffAvailable() const; // this stage has a source and a previous stage with one

signals:
    void modeChanged(Mode mode);

private:
    void refresh();
    void showMessage(const QString &header, const QString &message);
    void showSource(const StageInfo &info, std::string_view text);
    void showDiff(const StageInfo &info, std::string_view text, const StageInfo &previous,
                  std::string_view previousText);

    StageId m_stage = StageId::Naive;
    Mode m_mode = Mode::Source;
    bool m_diffAvailable = false;
    QLabel *m_header;
    QRadioButton *m_sourceButton;
    QRadioButton *m_diffButton;
    QStackedWidget *m_stack;
    QPlainTextEdit *m_editor;
    QLabel *m_message;
};

} // namespace gemmscope
