// Shared-memory bank conflicts of one warp access: 32 lanes on top, 32 banks below, a line from
// each lane to its bank, and per bank a bar of the distinct words asked for. The tallest bar is
// the conflict degree (wavefronts per request); a broadcast of one word counts once.
#pragma once

#include "access_model.h"
#include "events.h"
#include "run_view.h"

#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;

namespace gemmscope {

struct ProfileDigest;

class SwizzleView;

class BankConflictView : public QWidget, public RunView {
    Q_OBJECT

public:
    explicit BankConflictView(QWidget *parent = nullptr);

    // Any list of accesses: a stage's (see setStage) or the guide's column / row demo.
    void setAccesses(const std::vector<SharedAccess> &accesses);
    // Every shared-memory access of `warp` for one k-step (fills, then inner-loop reads at k = 0).
    // A TMA stage has none: the view shows its boxes and swizzle atom (swizzleView()) above the
    // tensor core's k-chunk reads, swizzled, and the unswizzled read for comparison.
    void setStage(const KernelShape &shape, const AccessContext &context, int warp);
    SwizzleView *swizzleView() const { return m_swizzle; }

    int count() const { return int(m_accesses.size()); }
    int currentIndex() const { return m_current; }
    void setCurrentIndex(int index);
    const SharedAccess *currentAccess() const;
    QString degreeText() const; // "32-way conflict: 32 wavefronts for one request"

    std::optional<QString> exportTo(const QString &path) override; // the print layout, at a fixed size
    QString viewName() const override { return tr("the bank-conflict view"); }
    void setCaption(const QString &caption) { m_caption = caption; }
    QString printTitle() const;
    // The bar height of a bank asked for `words` distinct words, as a share of the bar space: one
    // scale for every access (up to 8 words, or the degree when higher), so 4-way is 4x 1-way.
    double barShare(int words) const;
    int barScale() const; // the word count at the full bar height
    // Two entries shown side by side (stacked) whenever either is current: the guide's unpadded
    // and padded column reads. -1, -1 clears.
    void setComparePair(int first, int second);
    bool showingPair() const;
    // A sentence under the diagram where the access needs one (the guide's unpadded layout).
    void setNote(const QString &note);

    // Paints the current access into `area` (the canvas uses it too).
    void paintAccess(QPainter &p, const QRectF &area) const;

    // A profile of the configuration shown (nullptr: none): under the diagram, the measured
    // wavefronts per request of the current access's class beside the model's degree.
    void setProfile(const protocol::ProfileEvent *profile);
    // The same, folded already (profile_digest.h, shared): its memory instructions are not found
    // again at every step of the diagram.
    void setProfileDigest(std::shared_ptr<const ProfileDigest> profile);
    QString measuredText() const; // empty without a profile

    static QColor conflictColor();
    // The tooltip at a canvas position: a lane (its word and bank) or a bank (the words asked of it).
    QString tooltipAt(const QPointF &canvasPos) const;
    QWidget *canvas() const { return m_canvas; }

signals:
    void currentIndexChanged(int index);

private:
    std::vector<SharedAccess> m_accesses;
    int m_current = -1;
    QString m_caption;
    QString m_note;
    int m_pairFirst = -1, m_pairSecond = -1;
    void paintOne(QPainter &p, const QRectF &area, const SharedAccess &a, bool withNote) const;
    QComboBox *m_picker = nullptr;
    QWidget *m_canvas = nullptr;
    SwizzleView *m_swizzle = nullptr;
    std::shared_ptr<const ProfileDigest> m_profile;
    QLabel *m_measured = nullptr;
    void updateMeasured();
};

} // namespace gemmscope
