// The access model against the hardware, for one run: the model's sectors per global request and
// wavefronts per shared instruction (one interior block, from the stage's own addresses) beside
// the kernel-wide values CUPTI measured in that run, and whether the two agree within
// kTolerance (agreesWithModel); where every block is full, also the launch's instruction counts, which show
// whether the binary issued the source's 4-byte shared reads. Where model and measurement
// cannot agree for a known reason (reads the compiler merged into LDS.128, edge blocks at sizes
// the tiles do not divide), the row says so instead of a bare "differs".
#pragma once

#include "model_agreement.h"
#include "run_record.h"
#include "run_view.h"

#include <QList>
#include <QWidget>
#include <optional>

class QLabel;

namespace gemmscope {

class AccessCheckView : public QWidget, public RunView {
    Q_OBJECT

public:
    static constexpr double kTolerance = kModelAgreementTolerance; // agreesWithModel's

    // NotObservable: the access happens, but outside what the counters measure (TMA copies and
    // wgmma's shared-memory reads bypass the LSU pipe; cp.async issues no store instruction).
    // AboveModel: more than the model for a known cause the counter includes and the model does not
    // (shared stores beside global loads: L1 contention), flagged in amber rather than called wrong.
    enum class Verdict { Agrees, Differs, AboveModel, NotCompared, NoAccess, NotObservable };
    struct Row {
        QString quantity;               // "Global loads: sectors per request"
        double model = 0;               // 0 when the stage makes no such access
        bool isCount = false;           // a whole-launch instruction count, not a per-request ratio
        std::optional<double> measured; // empty when the kernel made none
        Verdict verdict = Verdict::NotCompared;
        QString note;      // why, when the verdict is not plain agreement
        QString modelText; // the model's statement where it is not a number ("2 boxes, 48 KiB")
    };

    explicit AccessCheckView(QWidget *parent = nullptr);

    // The run to check; nothing or a run without usable counters shows why there is no check.
    void setRun(const std::optional<RunRecord> &run);
    void setSelectedRun(const QString &, const RunRecord *run) override
    {
        setRun(run ? std::optional<RunRecord>(*run) : std::nullopt);
    }

    QString headline() const; // the sentence above the table, or the reason there is none
    const QList<Row> &rows() const { return m_rows; }

    std::optional<QString> exportTo(const QString &path) override;
    QString viewName() const override { return tr("the counters table"); }

private:
    void showMessage(const QString &text);
    void render();

    QString m_headline;
    QString m_footnote;
    QList<Row> m_rows;
    QLabel *m_label;
};

} // namespace gemmscope
