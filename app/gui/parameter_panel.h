// The left-hand panel: stage picker (the ladder in order, with the seed step each stage
// reproduces), one slider + spin box per tile parameter from the catalog, presets one click away,
// problem size and timing options. Validates live with gemmscope::violations(): the sentences sit
// next to the controls and Run is disabled while there are any.
#pragma once

#include "run_request.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QListWidget;
class QPushButton;
class QSlider;
class QSpinBox;

namespace gemmscope {

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParameterPanel(QWidget *parent = nullptr);

    RunConfig config() const { return m_config; }
    bool isValid() const { return m_violations.empty(); }
    QString violationText() const; // the sentences shown, one per line; empty when valid

    void setConfig(const RunConfig &config);
    bool applyPreset(const QString &presetKey); // false for an unknown key
    void setStage(StageId stage);               // the stage's default parameters
    void setParam(const QString &name, int value);
    void setProblemSize(const ProblemSize &size);
    void setRunEnabledByRunner(bool enabled, const QString &why); // the runner's availability

    static QList<QPair<QString, ProblemSize>> sizePresets();

signals:
    void configurationChanged(const gemmscope::RunConfig &config);
    void validityChanged(bool valid);
    void runRequested();

private:
    void buildParamRows();
    void syncControlsFromConfig();
    void configEdited(); // after any control changed m_config
    void updateValidation();

    RunConfig m_config;
    std::vector<std::string> m_violations;
    QString m_runnerReason; // why running is off, for the Run button's tooltip
    bool m_runnerAvailable = true;
    bool m_syncing = false;

    QComboBox *m_stageCombo;
    QLabel *m_stageSummary;
    QListWidget *m_presetList;
    QFormLayout *m_paramForm;
    QWidget *m_paramBox;
    struct ParamRow {
        QString name;
        QList<int> values; // the legal values the slider steps through
        QSlider *slider;
        QSpinBox *spin;
    };
    QList<ParamRow> m_paramRows;
    QComboBox *m_sizeCombo;
    QSpinBox *m_mSpin, *m_nSpin, *m_kSpin;
    QSpinBox *m_budgetSpin;
    QCheckBox *m_flushCheck;
    QCheckBox *m_countersCheck;
    QCheckBox *m_scalarReadsCheck;
    QComboBox *m_blocksPerSmCombo; // launch experiments: item data = TimingOptions value
    QComboBox *m_carveoutCombo;
    QLabel *m_violationLabel;
    QPushButton *m_runButton;
};

} // namespace gemmscope

Q_DECLARE_METATYPE(gemmscope::RunConfig)
