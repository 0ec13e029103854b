// The Counters workspace's per-instruction memory table: every global and shared
// load and store of a profile — its executions, sectors per request (global) or wavefronts per
// request (shared) against CUPTI's ideal, the access model's figure where the stage has one, and
// a verdict per row; sortable, the worst first by default. The selected row's verdict and reason
// read in full under the table. Measured columns never need a model.
#pragma once

#include "events.h"
#include "profile_tables.h"
#include "run_view.h"

#include <QWidget>
#include <memory>
#include <optional>

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace gemmscope {

class EmptyState;
struct ProfileDigest;

class MemoryInstructionView : public QWidget, public RunView {
    Q_OBJECT

public:
    explicit MemoryInstructionView(QWidget *parent = nullptr);

    // The profile to show (nullptr: none; the view keeps a copy) and, where the configuration's
    // stage has an access model, its figures (app/core/profile_analysis.h modelFigures()).
    void setProfile(const protocol::ProfileEvent *profile,
                    const std::optional<ModelFigures> &model = std::nullopt);
    // The same, folded already (profile_digest.h, shared): what the window gives, so that showing a
    // large profile never folds it on the UI thread. The same profile and model are not shown again.
    void setProfileDigest(std::shared_ptr<const ProfileDigest> profile,
                          const std::optional<ModelFigures> &model = std::nullopt);
    void setNoProfileText(const QString &sentence);
    // What shows while there is no profile: the sentence and, where one is offered, its button.
    EmptyState *emptyState() const { return m_empty; }
    // The band over the table when the profile is not of the user's session ("The embedded H200
    // example, not your session: ..."); empty: none.
    void setReferenceNote(const QString &sentence);
    QString referenceNote() const;

    QString headline() const;   // the sentence over the table: a summary, an error or the empty state
    QString detailText() const; // the selected row's verdict and reason
    int rowCount() const;
    const MemoryRow *rowAt(int viewRow) const; // in the order shown
    QTableView *table() const { return m_table; }
    void selectRow(int viewRow);

    QString viewName() const override { return tr("the memory instruction table"); }

signals:
    // The selected instruction (for the coalescing and bank views' measured figure).
    void instructionSelected(MemorySpace space, MemoryDirection direction, std::optional<Operand> operand);

private:
    void showDetail();

    std::shared_ptr<const ProfileDigest> m_profile;
    std::optional<ModelFigures> m_modelFigures;
    QString m_noProfileText;
    EmptyState *m_empty;
    QLabel *m_reference;
    QLabel *m_headline;
    QLabel *m_detail;
    QTableView *m_table;
    MemoryInstructionsModel *m_model;
    QSortFilterProxyModel *m_proxy;
};

} // namespace gemmscope
