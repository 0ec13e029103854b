// The machine code of the current configuration: its PTX (always) and SASS (where the toolkit
// has nvdisasm), each line with the CUDA source line it came from, the hot loop highlighted, and
// the instruction mix by class for the loop and the whole kernel, with the ratios a GEMM is
// judged by (FFMAs per shared load, share of 128-bit shared loads). Filled from a runner
// `disassembly` event; the view itself runs nothing.
#pragma once

#include "events.h"
#include "machine_code.h"
#include "run_view.h"

#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace gemmscope {

class CodeHeatEdit;
class ProfileHotspotTable;
struct ProfileDigest;
class StallBreakdownBar;

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
    QString sassNote() const; // why there is no SASS, while the PTX stands in; empty otherwise
    // "SASS" or "PTX": what the pane shows now, for its tab's title (a pane of PTX called "SASS"
    // misleads). "SASS" before any code.
    QString levelName() const;
    QString lineInfo() const; // the line under the code: the instruction at the cursor, once one is chosen
    const MachineCode *code() const; // the level on screen; nullptr while there is none
    int mixCount(const QString &category, bool innerLoop) const; // from the table on screen

    // The profile of the configuration shown, or nullptr: with one, the SASS lines of the
    // profiled kernel get a heat margin by their offset, a "where the time goes" bar heads the code
    // and a sortable table lists the hottest instructions (from the profile itself, so it stands
    // even before a disassembly). The view keeps its own copy.
    void setProfile(const protocol::ProfileEvent *profile);
    // The same, folded already (profile_digest.h, shared): what the window gives, so that showing a
    // large profile never folds it on the UI thread. The profile shown already is not shown again.
    void setProfileDigest(std::shared_ptr<const ProfileDigest> profile);
    bool hasProfile() const { return m_profile != nullptr; }
    void setNoProfileText(const QString &sentence);
    QString profileText() const; // the line over the bar: the profile, a mismatch, or the empty state
    StallBreakdownBar *breakdownBar() const { return m_breakdown; }
    ProfileHotspotTable *hotInstructions() const { return m_hotInstructions; }
    CodeHeatEdit *editor() const { return m_editor; }

signals:
    // The cursor is on an instruction with a known source line (the Source tab can show it).
    void sourceLineRequested(const QString &file, int line);
    void refreshRequested();                    // the Disassemble button: compile the current configuration
    void levelNameChanged(const QString &name); // levelName() changed

private:
    void buildMixTable();
    void buildProfileSection();
    void showLevel();
    // Without nvdisasm's SASS, the profile's own instructions (text, offset, source line) stand in
    // for the profiled kernel's SASS, so that its heat has lines to sit on.
    void adoptProfileListing();
    void fillMix(const MachineCode &code);
    void fitMixHeight(); // every class row in view, no taller
    void highlightLoop(const MachineCode &code);
    void reportCursorLine();

    MachineCode m_ptx, m_sass;
    bool m_hasCode = false;
    bool m_hasSass = false;
    bool m_nvdisasmSass = false;    // m_sass came from nvdisasm (else from the profile, or none)
    bool m_sassFromProfile = false; // m_sass is the profile's listing
    QString m_sassUnavailable;      // why nvdisasm gave none
    QLabel *m_header;
    QComboBox *m_levelCombo;
    QPushButton *m_refresh;
    CodeHeatEdit *m_editor;
    QLabel *m_summary;
    QLabel *m_lineInfo;
    QTableWidget *m_mix;
    QLabel *m_message;
    QLabel *m_sassNote;
    QLabel *m_loopKey; // what the grey shading is
    QString m_levelName = QStringLiteral("SASS");
    bool m_placingCursor = false; // the view moves the cursor: the line under the code stays quiet

    void applyProfile();
    void applyHeat(); // the shown SASS lines' heat, by offset
    std::shared_ptr<const ProfileDigest> m_profile;
    QString m_noProfileText;
    QString m_heatNote; // why the shown code has no heat, when it has none
    QLabel *m_profileLabel;
    StallBreakdownBar *m_breakdown;
    ProfileHotspotTable *m_hotInstructions;
};

} // namespace gemmscope
