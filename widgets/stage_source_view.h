// The CUDA source of the selected stage, or its line diff from the previous stage in the ladder
// (the design's "show each stage's source and its diff from the previous stage"). The text is the
// copy embedded in the binary, i.e. exactly what the runner compiles with NVRTC.
#pragma once

#include "access_model.h"
#include "events.h"
#include "run_view.h"

#include "stage_catalog.h"

#include <QWidget>
#include <memory>

class QLabel;
class QPlainTextEdit;
class QRadioButton;
class QComboBox;
class QStackedWidget;
class QSplitter;

namespace gemmscope {

class CodeHeatEdit;
class ProfileHotspotTable;
struct ProfileDigest;
class StallBreakdownBar;

class StageSourceView : public QWidget, public RunView {
    Q_OBJECT

public:
    enum class Mode { Source, Diff };

    explicit StageSourceView(QWidget *parent = nullptr);
    QString viewName() const override { return tr("the stage source"); }

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

    // The files the compiler sees for this stage: its own, then what it includes (recursively).
    QStringList files() const { return m_files; }
    QString currentFile() const { return m_file; }
    void setCurrentFile(const QString &name); // shows one of files() (Source mode)

    // Highlights the source line that issues a global access (the Coalescing view's instruction),
    // in whichever file holds it; returns false when no line could be found.
    bool highlightAccess(Operand operand, AccessKind kind);
    int highlightedLine() const { return m_highlightLine; } // 1-based; 0 when none
    QString highlightedFile() const { return m_highlightLine > 0 ? m_file : QString(); }

    // The profile of the configuration shown, or nullptr for none: with one, each sampled
    // line gets a heat margin (share, first stall reason), a "where the time goes" bar heads the
    // file and a sortable table lists the hottest lines (a click shows the line). The view keeps
    // its own copy. A change of stage drops it (a profile is never shown against another source).
    void setProfile(const protocol::ProfileEvent *profile);
    // The same, folded already (profile_digest.h, shared): what the window gives, so that showing a
    // large profile never folds it on the UI thread. The profile shown already is not shown again.
    void setProfileDigest(std::shared_ptr<const ProfileDigest> profile);
    bool hasProfile() const { return m_profile != nullptr; }
    // What the profile line says without a profile ("Profile this configuration (Ctrl+P) to ...").
    void setNoProfileText(const QString &sentence);
    QString profileText() const; // the line above the bar: the profile, its error, or the empty state
    // The band over the profile line when the profile is not of the user's session (the embedded
    // example, empty_state.h); empty: none.
    void setProfileCaption(const QString &sentence);
    QString profileCaption() const;
    StallBreakdownBar *breakdownBar() const { return m_breakdown; }
    ProfileHotspotTable *hotLines() const { return m_hotLines; }
    CodeHeatEdit *editor() const { return m_editor; }

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
    CodeHeatEdit *m_editor;
    QLabel *m_message;
    QComboBox *m_fileCombo;
    QStringList m_files;
    QString m_file;
    int m_highlightLine = 0;
    void showFile(const QString &name);
    void applyHighlight();
    void applyProfile(); // the bar, the table and the current file's heat
    void applyHeat();    // the current file's heat alone (a change of file keeps the table's sort)
    void showHotLine(const QString &file, int line);

    std::shared_ptr<const ProfileDigest> m_profile;
    QString m_noProfileText;
    QLabel *m_profileLabel;
    QLabel *m_profileCaption = nullptr;
    StallBreakdownBar *m_breakdown;
    ProfileHotspotTable *m_hotLines;
    QSplitter *m_split;
};

} // namespace gemmscope
