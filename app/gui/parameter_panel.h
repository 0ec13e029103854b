// The left-hand panel: stage picker (the ladder in order, each stage by its code and name) and,
// under it, which of that stage's presets the tile parameters come from ("Custom" for the user's
// own values), then two tabs, Parameters (one slider + spin box
// per tile parameter from the catalog, and the problem size) and Measurement (timing, counters, the
// build and launch experiments), and Run. Tabs rather than one long column: at 1280x800 the
// measurement settings sat below the fold and the presets list showed seven of its entries.
// Where the panel is tall enough for both (1920x1080), the measurement settings sit under the
// parameters instead, no tab to switch, no empty half-panel under Run (arrangeSections).
// Validates live with gemmscope::violations(): each sentence sits beside the field it names first
// (BM, TM, M...) as well as in the list under the parameters, and Run is disabled while there are
// any. A value typed outside a spin box's range is refused with a
// sentence beside the field ("BM is at most 256: 999 was not taken."), never silently.
#pragma once

#include "run_request.h"

#include <QWidget>
#include <functional>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QTabWidget;
class QVBoxLayout;
class QPushButton;
class QSlider;
class QSpinBox;

namespace gemmscope {

class LimitSpinBox;

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParameterPanel(QWidget *parent = nullptr);

    RunConfig config() const { return m_config; }
    bool isValid() const { return m_violations.empty(); }
    QString violationText() const; // the sentences shown, one per line; empty when valid
    // The line beside a field: its refused value's limit and the violations that name it first.
    // `field` is a parameter ("BM"), "size" (M, N, K) or "budget". Empty when there is none.
    QString fieldNote(const QString &field) const;

    void setConfig(const RunConfig &config);
    bool applyPreset(const QString &presetKey); // false for an unknown key
    void setStage(StageId stage);               // the stage's default parameters
    void setParam(const QString &name, int value);
    void setProblemSize(const ProblemSize &size);
    void setRunEnabledByRunner(bool enabled, const QString &why); // the runner's availability

    static QList<QPair<QString, ProblemSize>> sizePresets();
    // Whether the measurement settings sit under the parameters (the panel has room for both)
    // rather than on a tab of their own.
    bool measurementStacked() const { return m_stacked; }

protected:
    void resizeEvent(QResizeEvent *event) override;

signals:
    void configurationChanged(const gemmscope::RunConfig &config);
    void validityChanged(bool valid);
    void runRequested();

private:
    // The panel's sections, top to bottom; each builds its group and fills its members.
    QGroupBox *buildStageSection();
    QWidget *buildPresetRow();
    QTabWidget *buildTabs();
    QGroupBox *buildParameterSection();
    QGroupBox *buildSizeSection();
    QGroupBox *buildMeasurementSection();
    void addTimingRows(QFormLayout *form);
    void addBuildRows(QFormLayout *form);
    void addLaunchRows(QFormLayout *form);
    // What the controls change once built.
    void connectStageAndPresets();
    void connectSizeAndBudget();
    void connectMeasurement();
    void showLimits(LimitSpinBox *spin, QString *note);
    void onComboEdited(QComboBox *combo, const std::function<void(const QVariant &)> &apply);
    void onCheckEdited(QCheckBox *check, const std::function<void(bool)> &apply);

    void buildParamRows();
    void arrangeSections(); // tabs, or both sections one under the other where they fit
    int stackedHeight() const;
    void syncControlsFromConfig();
    void listCustomStage(StageId stage);
    void syncPresetChoices(); // the configured stage's presets in m_presetCombo
    void configEdited();      // after any control changed m_config
    void updateValidation();
    void updateFieldNotes();

    RunConfig m_config;
    std::vector<std::string> m_violations;
    QString m_runnerReason; // why running is off, for the Run button's tooltip
    bool m_runnerAvailable = true;
    bool m_syncing = false;

    QComboBox *m_stageCombo;
    QLabel *m_stageSummary;
    QComboBox *m_presetCombo; // item data: the preset's key; none current for the user's own values
    StageId m_presetChoicesStage{std::string_view{}}; // whose presets m_presetCombo lists
    QTabWidget *m_tabs;                               // Parameters | Measurement
    QGroupBox *m_stageBox;
    QGroupBox *m_measurementGroup;    // on the Measurement tab, or under the tabs when stacked
    QWidget *m_measurementPage;       // the Measurement tab, taken off while stacked
    QVBoxLayout *m_measurementLayout; // the Measurement tab's
    QVBoxLayout *m_stackedSlot;       // under the tabs: the measurement group when stacked
    bool m_stacked = false;
    QFormLayout *m_paramForm;
    QWidget *m_paramBox;
    struct ParamRow {
        QString name;
        QList<int> values; // the legal values the slider steps through
        QSlider *slider;
        LimitSpinBox *spin;
        QLabel *note;      // beside the field: limitNote, then the violations naming it
        QString limitNote; // the last refused value's sentence, until a value is taken
    };
    QList<ParamRow> m_paramRows;
    QComboBox *m_sizeCombo;
    LimitSpinBox *m_mSpin, *m_nSpin, *m_kSpin;
    QLabel *m_sizeNote;
    QString m_sizeLimitNote;
    LimitSpinBox *m_budgetSpin;
    QLabel *m_budgetNote;
    QString m_budgetLimitNote;
    QCheckBox *m_flushCheck;
    QCheckBox *m_countersCheck;
    QCheckBox *m_scalarReadsCheck;
    QComboBox *m_blocksPerSmCombo; // launch experiments: item data = TimingOptions value
    QComboBox *m_carveoutCombo;
    QComboBox *m_regimeCombo, *m_noiseCombo, *m_thresholdCombo;
    QComboBox *m_tf32InputsCombo; // item data: TimingOptions::truncateTf32
    QLabel *m_violationLabel;
    QPushButton *m_runButton;
};

} // namespace gemmscope

Q_DECLARE_METATYPE(gemmscope::RunConfig)
