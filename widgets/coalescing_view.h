// Steps through one warp's global memory instructions (load A, load B, store C, in program order)
// and shows the 32 lanes, where their addresses fall in memory as a strip of 32-byte sectors,
// the sectors fetched, and the running sectors per request and byte efficiency.
// play()/pause() animate with a QTimer; step() is the deterministic API the tests use.
#pragma once

#include "access_model.h"
#include "events.h"
#include "run_view.h"

#include <QWidget>
#include <memory>
#include <optional>

class QTimer;
class QToolButton;
class QComboBox;
class QSpinBox;
class QLabel;

namespace gemmscope {

struct ProfileDigest;

class CoalescingView : public QWidget, public RunView {
    Q_OBJECT

public:
    explicit CoalescingView(QWidget *parent = nullptr);

    // Recomputes the instructions; an invalid context shows its reason instead of a diagram.
    void setShape(const KernelShape &shape, const AccessContext &context = {});
    void setWarp(int warp);
    int warp() const { return m_warp; }

    int frameCount() const { return int(m_accesses.size()); }
    int currentFrame() const { return m_frame; }
    const GlobalAccess *currentAccess() const;
    const std::vector<GlobalAccess> &accesses() const { return m_accesses; }
    QString errorText() const { return m_error; }

    // Totals over frames 0..currentFrame.
    long long runningRequests() const;
    long long runningSectors() const;
    double runningEfficiency() const;
    QString summaryText() const; // the line under the diagram

    bool isPlaying() const;

    // One file per frame into `folder` (frame_000.png, ...; `suffix` png, pdf or svg), each the print
    // layout of exportTo; an error sentence on failure.
    std::optional<QString> exportFrames(const QString &folder, QSize size = kPrintSize,
                                        const QString &suffix = QStringLiteral("png"));
    // The current frame's print layout (title naming the configuration, the diagram, its legend).
    std::optional<QString> exportTo(const QString &path) override;
    QString viewName() const override { return tr("the coalescing frame"); }
    static constexpr QSize kPrintSize{1100, 560};

    // What the diagram is of ("Step 2: shared-memory tiling, BM=32 BN=32 BK=32"), for print titles.
    void setCaption(const QString &caption) { m_caption = caption; }
    QString caption() const { return m_caption; }
    QString printTitle(int frame) const;

    // Paints frame `frame` into `area` (the canvas and the frame export share it); in compare mode
    // the compared configuration's matching instruction below it.
    void paintFrame(QPainter &p, const QRectF &area, int frame) const;

    // Compare mode: the same instruction of a second configuration below this one's
    // ("step 2's B load vs step 3's"). A preset key, or empty to leave compare mode.
    bool setCompareWith(const QString &presetKey);
    void setCompareShape(const KernelShape &shape, const QString &caption);
    void clearCompare();
    bool comparing() const { return m_compare.has_value(); }
    // The compared configuration's instruction matching `frame` (same operand, kind and index).
    const GlobalAccess *compareAccess(int frame) const;
    // The frame "Jump to change" goes to: the instruction whose sectors per request differ most from
    // the compared configuration's, then the next largest (wrapping); -1 when none differs. Without
    // compare mode: the least efficient frame.
    int changedFrame() const;
    int leastEfficientFrame() const;
    void jumpToChange(); // the "Jump to the instruction that changed" button
    // The tooltip at a canvas position: the lane under it (its thread, address and sector).
    QString tooltipAt(const QPointF &canvasPos) const;
    QWidget *canvas() const { return m_canvas; }
    // A sentence under the diagram for the stage (the naive kernel's).
    void setNote(const QString &note);
    QString note() const { return m_note; }
    // A profile of the configuration shown (nullptr: none): under the diagram, the measured
    // sectors per request of the current instruction's class beside the model's figure.
    void setProfile(const protocol::ProfileEvent *profile);
    // The same, folded already (profile_digest.h, shared): its memory instructions are not found
    // again at every step of the diagram.
    void setProfileDigest(std::shared_ptr<const ProfileDigest> profile);
    QString measuredText() const; // empty without a profile

public slots:
    void play();
    void pause();
    void step();   // next frame; stops at the last one
    void rewind(); // back to frame 0
    void setFramesPerSecond(double fps);

signals:
    void frameChanged(int frame);

private:
    void setFrame(int frame);
    void syncControls();

    QString m_caption;
    QString m_note;
    std::optional<KernelShape> m_compare;
    QString m_compareCaption;
    std::vector<GlobalAccess> m_compareAccesses;
    QComboBox *m_compareBox = nullptr;
    QToolButton *m_jumpButton = nullptr;
    int m_lastJump = -1; // where "Jump to change" last landed
    void recomputeCompare();
    void paintOne(QPainter &p, const QRectF &area, const GlobalAccess &a, const QString &header,
                  const QString &footer) const;
    KernelShape m_shape;
    AccessContext m_context;
    int m_warp = 0;
    std::vector<GlobalAccess> m_accesses;
    QString m_error;
    int m_frame = 0;
    double m_fps = 2.0;

    QTimer *m_timer = nullptr;
    QToolButton *m_playButton = nullptr;
    QSpinBox *m_warpBox = nullptr;
    QComboBox *m_speedBox = nullptr;
    QWidget *m_canvas = nullptr;
    std::shared_ptr<const ProfileDigest> m_profile;
    QLabel *m_measured = nullptr;
    void updateMeasured();
};

} // namespace gemmscope
