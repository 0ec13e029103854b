// The machine code of the current configuration: its PTX (always) and SASS (where the toolkit
// has nvdisasm), each line with the CUDA source line it came from, the hot loop highlighted, and
// the instruction mix by class for the loop and the whole kernel, with the ratios a GEMM is
// judged by (FFMAs per shared load, share of 128-bit shared loads). Filled from a runner
// `disassembly` event; the view itself runs nothing.
#pragma once

#include "machine_code.h"
#include "run_view.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace gemmscope {

class MachineCodeView : public QWidget, public RunView {
    Q_OBJECT

public:
    explicit MachineCodeView(QWidget *parent = nullptr);
    QString viewName() const override { return tr("the SASS view"); }

    // `title` names the kernel ("gemmscope::pipelined<128, 256, 16, 8, 16, 1> for sm_90").
    // `sass` empty: only the PTX is offered (SASS cannot be chosen), and a line above it says why
    // (`sassUnavailable`) and that the PTX is shown instead: the pane is never empty.
    void setMachineCode(const QString &title, const QString &ptx, const QString &sass,
                        const QString &sassUnavailable);
    void setLoading(const QString &what);     // "Compiling ... for sm_90"
    void setMessage(const QString &sentence); // an error, or why there is nothing (cuBLAS)

    // What is on screen, for tests and exports.
    CodeLevel level() const;
    void setLevel(CodeLevel level); // no-op for SASS when there is none
    QString shownText() const;
    QString summaryText() const;
    QString message() const;
    QString sassNote() const;        // why there is no SASS, while the PTX stands in; empty otherwise
    const MachineCode *code() const; // the level on screen; nullptr while there is none
    int mixCount(const QString &category, bool innerLoop) const; // from the table on screen

signals:
    // The cursor is on an instruction with a known source line (the Source tab can show it).
    void sourceLineRequested(const QString &file, int line);
    void refreshRequested(); // the Disassemble button: compile the current configuration

private:
    void showLevel();
    void fillMix(const MachineCode &code);
    void highlightLoop(const MachineCode &code);
    void reportCursorLine();

    MachineCode m_ptx, m_sass;
    bool m_hasCode = false;
    bool m_hasSass = false;
    QLabel *m_header;
    QComboBox *m_levelCombo;
    QPushButton *m_refresh;
    QPlainTextEdit *m_editor;
    QLabel *m_summary;
    QLabel *m_lineInfo;
    QTableWidget *m_mix;
    QLabel *m_message;
    QLabel *m_sassNote;
};

} // namespace gemmscope
