// Stand-in for a diagram whose widget has not landed yet (roofline, thread mapping): it shows, as
// text, what the analytic model says about the configured stage — never an empty box. It follows
// the parameter panel and the selected run like the real diagrams will.
#pragma once

#include "run_record.h"
#include "run_request.h"
#include "run_view.h"

#include <QFrame>
#include <optional>

class QLabel;

namespace gemmscope {

class ModelSummaryView : public QFrame, public RunView {
    Q_OBJECT
public:
    enum class Kind { Roofline, Mapping };
    explicit ModelSummaryView(Kind kind, QWidget *parent = nullptr);

    void setConfig(const RunConfig &config);
    void setSelectedRun(const std::optional<RunRecord> &run);
    void setSelectedRun(const QString &, const RunRecord *run) override
    {
        setSelectedRun(run ? std::optional<RunRecord>(*run) : std::nullopt);
    }
    // "the mapping summary" (it stands in for the tile map), "the roofline summary"
    QString viewName() const override;
    QString text() const; // what is shown, as plain text (tests, export)

private:
    void refresh();
    QString rooflineHtml() const;
    QString mappingHtml() const;

    Kind m_kind;
    RunConfig m_config;
    std::optional<RunRecord> m_run;
    QLabel *m_title;
    QLabel *m_body;
};

} // namespace gemmscope
