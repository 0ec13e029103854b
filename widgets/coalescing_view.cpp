#include "coalescing_view.h"

#include "chart_interaction.h"
#include "mapping_model.h"
#include "plot_export.h"
#include "plot_theme.h"
#include "profile_digest.h"
#include "stage_catalog.h"
#include "stage_names.h"

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMenu>
#include <QPainter>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>
#include <optional>

namespace gemmscope {

namespace {

constexpr int kWordsPerSector = kSectorBytes / kFloatBytes;
constexpr int kGapSlots = 3; // width of the break between non-adjacent sectors, in word slots

QColor usedWordColor()
{
    return QColor(0xff, 0x7f, 0x0e);
}
QColor wastedWordColor()
{
    return QColor(0xe6, 0xe6, 0xe6);
}

// Paints through the owning view, so the widget and the frame export draw the same picture.
class CoalescingCanvas : public QWidget {
public:
    explicit CoalescingCanvas(CoalescingView *view) : QWidget(view), m_view(view)
    {
        setMinimumSize(480, 260);
    }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        m_view->paintFrame(p, rect(), m_view->currentFrame());
    }

private:
    CoalescingView *m_view;
};

constexpr double kCoalescingMargin = 10;
// Where paintOne puts the 32 lanes inside the area it paints.
QRectF lanesRowOf(const QRectF &area)
{
    const QRectF inner =
        area.adjusted(kCoalescingMargin, kCoalescingMargin, -kCoalescingMargin, -kCoalescingMargin);
    return QRectF(inner.left(), inner.top() + 28, inner.width(), 22);
}

// Compare mode's two halves: side by side where each still gets a readable warp of 32 lanes (the
// two verdicts then sit at one height, above the fold), else one above the other.
constexpr double kSideBySideMinWidth = 940;
std::pair<QRectF, QRectF> compareHalves(const QRectF &area)
{
    if (area.width() >= kSideBySideMinWidth) {
        const QRectF left(area.left(), area.top(), area.width() / 2, area.height());
        return {left, QRectF(left.right(), area.top(), area.width() - left.width(), area.height())};
    }
    const QRectF top(area.left(), area.top(), area.width(), area.height() / 2);
    return {top, QRectF(area.left(), top.bottom(), area.width(), area.height() - top.height())};
}

// "25%", "12.5%": a decimal only where the share is not a whole percent.
QString percent(double v)
{
    const double pct = 100.0 * v;
    return QString::number(pct, 'f', std::abs(pct - std::round(pct)) < 0.05 ? 0 : 1) + QLatin1Char('%');
}

// The lane numbers in a font whose "31" fits a box with a pixel either side: in compare mode at
// 1440 the window's font ran lanes 10-31 into each other. Too narrow even at 6 pt: none (the
// tooltip names each lane).
std::optional<QFont> laneNumberFont(QFont font, double laneW)
{
    const double room = laneW - 4;
    while (QFontMetricsF(font).horizontalAdvance(QStringLiteral("31")) > room && font.pointSizeF() > 6)
        font.setPointSizeF(font.pointSizeF() - 0.5);
    if (QFontMetricsF(font).horizontalAdvance(QStringLiteral("31")) > room)
        return std::nullopt;
    return font;
}

// A line from each active lane to the word it reads in the memory strip; `slot` is a word's width
// (x) and the strip's top (y).
void paintLaneLines(QPainter &p, const GlobalAccess &a, const std::vector<double> &sectorLeft,
                    const QRectF &lanesRow, double laneW, QPointF slot)
{
    p.setRenderHint(QPainter::Antialiasing, true);
    for (int l = 0; l < kWarpSize; ++l) {
        const LaneAccess &lane = a.lanes[std::size_t(l)];
        if (!lane.active)
            continue;
        const auto it = std::lower_bound(a.sectors.begin(), a.sectors.end(), lane.address / kSectorBytes);
        const std::size_t si = std::size_t(it - a.sectors.begin());
        const int word = int((lane.address % kSectorBytes) / kFloatBytes);
        const QPointF from(lanesRow.left() + (l + 0.5) * laneW, lanesRow.bottom());
        const QPointF to(sectorLeft[si] + (word + 0.5) * slot.x(), slot.y());
        QColor c = warpColor(a.warp);
        c.setAlpha(150);
        p.setPen(QPen(c, 1));
        p.drawLine(from, to);
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

} // namespace

CoalescingView::CoalescingView(QWidget *parent) : QWidget(parent)
{
    m_timer = new QTimer(this);
    connect(m_timer, &QTimer::timeout, this, [this] {
        if (m_frame + 1 >= frameCount())
            pause();
        else
            step();
    });

    auto *controls = new QHBoxLayout;
    m_playButton = new QToolButton(this);
    m_playButton->setText(tr("Play"));
    m_playButton->setToolTip(tr("Play or pause the animation"));
    connect(m_playButton, &QToolButton::clicked, this, [this] { isPlaying() ? pause() : play(); });
    auto *stepButton = new QToolButton(this);
    stepButton->setText(tr("Step"));
    stepButton->setToolTip(tr("Show the next memory instruction"));
    connect(stepButton, &QToolButton::clicked, this, &CoalescingView::step);
    auto *rewindButton = new QToolButton(this);
    rewindButton->setText(tr("Rewind"));
    connect(rewindButton, &QToolButton::clicked, this, &CoalescingView::rewind);
    m_speedBox = new QComboBox(this);
    for (double fps : {0.5, 1.0, 2.0, 4.0, 8.0})
        m_speedBox->addItem(tr("%1 per second").arg(fps), fps);
    m_speedBox->setCurrentIndex(2);
    m_speedBox->setToolTip(tr("Instructions shown per second while playing"));
    connect(m_speedBox, &QComboBox::currentIndexChanged, this,
            [this](int i) { setFramesPerSecond(m_speedBox->itemData(i).toDouble()); });
    m_warpBox = new QSpinBox(this);
    m_warpBox->setPrefix(tr("warp "));
    m_warpBox->setToolTip(tr("Which warp of the block to follow"));
    connect(m_warpBox, &QSpinBox::valueChanged, this, &CoalescingView::setWarp);
    controls->addWidget(m_playButton);
    controls->addWidget(stepButton);
    controls->addWidget(rewindButton);
    controls->addWidget(m_speedBox);
    controls->addWidget(m_warpBox);
    m_jumpButton = new QToolButton(this);
    m_jumpButton->setObjectName(QStringLiteral("coalescingJumpButton"));
    connect(m_jumpButton, &QToolButton::clicked, this, &CoalescingView::jumpToChange);
    controls->addWidget(m_jumpButton);
    m_compareBox = new QComboBox(this);
    m_compareBox->setObjectName(QStringLiteral("coalescingCompareCombo"));
    m_compareBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_compareBox->setMinimumContentsLength(10);
    m_compareBox->setToolTip(tr("Compare mode: the same instruction of another preset below this one"));
    m_compareBox->addItem(tr("Compare with…"), QString());
    for (const Preset &preset : presets())
        if (kernelShape(preset.stage, preset.params).shape)
            m_compareBox->addItem(presetTitle(preset), QString::fromStdString(preset.key));
    connect(m_compareBox, &QComboBox::activated, this,
            [this](int index) { setCompareWith(m_compareBox->itemData(index).toString()); });
    controls->addWidget(m_compareBox, 1);

    m_canvas = new CoalescingCanvas(this);
    // The shared chart interaction: lane tooltips, and the window's Export / Maximise menu entries.
    auto *interaction = new ChartInteraction(m_canvas, [this](const QPointF &pos) {
        return ChartInteraction::Hit{QString(), tooltipAt(pos)};
    });
    interaction->setMenuBuilder([this](QMenu &menu, const QPointF &) {
        menu.addAction(tr("Step"), this, &CoalescingView::step);
        menu.addAction(m_compare ? tr("Jump to the instruction that changed")
                                 : tr("Jump to the least efficient instruction"),
                       this, &CoalescingView::jumpToChange);
        if (m_compare)
            menu.addAction(tr("Leave compare mode"), this, &CoalescingView::clearCompare);
    });
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_canvas, 1);
    m_measured = new QLabel(this);
    m_measured->setObjectName(QStringLiteral("coalescingMeasured"));
    m_measured->setTextFormat(Qt::PlainText); // names and errors from the profile are data
    m_measured->setWordWrap(true);
    m_measured->hide();
    layout->addWidget(m_measured);
    setFramesPerSecond(m_fps);
}

void CoalescingView::setProfile(const protocol::ProfileEvent *profile)
{
    setProfileDigest(profile ? digestOf(*profile) : nullptr);
}

void CoalescingView::setProfileDigest(std::shared_ptr<const ProfileDigest> profile)
{
    m_profile = std::move(profile);
    updateMeasured();
}

QString CoalescingView::measuredText() const
{
    return m_measured->isHidden() ? QString() : m_measured->text();
}

void CoalescingView::updateMeasured()
{
    const GlobalAccess *a = currentAccess();
    if (!m_profile || !a) {
        m_measured->hide();
        return;
    }
    m_measured->setText(
        measuredBesideModel(m_profile->event, m_profile->memory, MemorySpace::Global,
                            a->kind == AccessKind::Load ? MemoryDirection::Load : MemoryDirection::Store,
                            a->operand, double(a->sectorsPerRequest())));
    m_measured->show();
}

void CoalescingView::setShape(const KernelShape &shape, const AccessContext &context)
{
    m_shape = shape;
    m_context = context;
    m_warp = std::clamp(m_warp, 0, shape.warps() - 1);
    m_error = QString::fromStdString(accessContextError(shape, context));
    m_accesses = m_error.isEmpty() ? globalAccesses(shape, context, m_warp) : std::vector<GlobalAccess>{};
    recomputeCompare();
    syncControls();
    setFrame(0);
}

bool CoalescingView::setCompareWith(const QString &presetKey)
{
    if (presetKey.isEmpty()) {
        clearCompare();
        return true;
    }
    const Preset *preset = findPreset(presetKey.toStdString());
    const KernelShapeResult shape = preset ? kernelShape(preset->stage, preset->params) : KernelShapeResult{};
    if (!shape.shape)
        return false;
    setCompareShape(*shape.shape, presetTitle(*preset));
    const QSignalBlocker block(m_compareBox);
    m_compareBox->setCurrentIndex(std::max(0, m_compareBox->findData(presetKey)));
    return true;
}

void CoalescingView::setCompareShape(const KernelShape &shape, const QString &caption)
{
    m_compare = shape;
    m_compareCaption = caption;
    recomputeCompare();
    syncControls();
    m_canvas->setMinimumHeight(440);
    m_canvas->update();
}

void CoalescingView::clearCompare()
{
    m_compare.reset();
    m_compareAccesses.clear();
    m_compareCaption.clear();
    {
        const QSignalBlocker block(m_compareBox);
        m_compareBox->setCurrentIndex(0);
    }
    syncControls();
    m_canvas->setMinimumHeight(260);
    m_canvas->update();
}

void CoalescingView::recomputeCompare()
{
    m_compareAccesses.clear();
    if (!m_compare)
        return;
    AccessContext context = m_context;
    context.size = roundedUpToTiles(*m_compare, m_context.size);
    if (accessContextError(*m_compare, context).empty())
        m_compareAccesses = globalAccesses(*m_compare, context, std::min(m_warp, m_compare->warps() - 1));
}

const GlobalAccess *CoalescingView::compareAccess(int frame) const
{
    if (!m_compare || frame < 0 || frame >= frameCount())
        return nullptr;
    const GlobalAccess &a = m_accesses[std::size_t(frame)];
    for (const GlobalAccess &c : m_compareAccesses)
        if (c.operand == a.operand && c.kind == a.kind && c.instruction == a.instruction)
            return &c;
    // The other configuration issues fewer instructions of this kind: its last one stands in.
    const GlobalAccess *last = nullptr;
    for (const GlobalAccess &c : m_compareAccesses)
        if (c.operand == a.operand && c.kind == a.kind)
            last = &c;
    return last;
}

int CoalescingView::leastEfficientFrame() const
{
    int worst = -1;
    for (int f = 0; f < frameCount(); ++f)
        if (worst < 0 ||
            m_accesses[std::size_t(f)].efficiency() < m_accesses[std::size_t(worst)].efficiency())
            worst = f;
    return worst;
}

int CoalescingView::changedFrame() const
{
    if (!m_compare)
        return leastEfficientFrame();
    // Every instruction whose sectors per request differ, the largest difference first: the first
    // jump lands on the change that matters most (step 2's strided B load against step 3's), the
    // next ones go through the rest.
    QList<QPair<int, int>> changed; // (difference, frame)
    for (int f = 0; f < frameCount(); ++f) {
        const GlobalAccess *other = compareAccess(f);
        const int mine = m_accesses[std::size_t(f)].sectorsPerRequest();
        const int difference = other ? std::abs(other->sectorsPerRequest() - mine) : mine;
        if (difference > 0)
            changed.append({difference, f});
    }
    if (changed.isEmpty())
        return -1;
    std::stable_sort(changed.begin(), changed.end(),
                     [](const auto &x, const auto &y) { return x.first > y.first; });
    // Pressed again where the last jump landed: the next change; anywhere else: the largest.
    if (m_frame == m_lastJump)
        for (int i = 0; i < changed.size(); ++i)
            if (changed[i].second == m_frame)
                return changed[(i + 1) % changed.size()].second;
    return changed.first().second;
}

void CoalescingView::jumpToChange()
{
    const int f = changedFrame();
    if (f >= 0)
        setFrame(f);
    m_lastJump = f;
}

QString CoalescingView::tooltipAt(const QPointF &pos) const
{
    const GlobalAccess *mine = currentAccess();
    if (!mine)
        return {};
    const QRectF area(QPointF(0, 0), QSizeF(m_canvas->size()));
    QList<QPair<QRectF, const GlobalAccess *>> halves;
    if (m_compare) {
        const auto [first, second] = compareHalves(area);
        halves << qMakePair(first, mine) << qMakePair(second, compareAccess(m_frame));
    } else {
        halves << qMakePair(area, mine);
    }
    for (const auto &[half, access] : halves) {
        const QRectF row = lanesRowOf(half);
        if (!access || !row.contains(pos))
            continue;
        const int lane =
            std::clamp(int((pos.x() - row.left()) / (row.width() / kWarpSize)), 0, kWarpSize - 1);
        const LaneAccess &l = access->lanes[std::size_t(lane)];
        if (!l.active)
            return tr("lane %1: inactive in this instruction").arg(lane);
        return tr("lane %1 = thread %2\nbyte %3 of the matrix (%4 B): sector %5, word %6 of it")
            .arg(lane)
            .arg(l.thread)
            .arg(l.address)
            .arg(l.bytes)
            .arg(l.address / kSectorBytes)
            .arg((l.address % kSectorBytes) / kFloatBytes);
    }
    return {};
}

void CoalescingView::setNote(const QString &note)
{
    m_note = note;
    m_canvas->update();
}

void CoalescingView::setWarp(int warp)
{
    if (warp < 0 || warp >= m_shape.warps() || warp == m_warp)
        return;
    m_warp = warp;
    setShape(m_shape, m_context);
}

void CoalescingView::syncControls()
{
    const QSignalBlocker block(m_warpBox);
    m_warpBox->setRange(0, std::max(0, m_shape.warps() - 1));
    m_warpBox->setValue(m_warp);
    m_jumpButton->setText(m_compare ? tr("Jump to change") : tr("Least efficient"));
    m_jumpButton->setToolTip(
        m_compare ? tr("Jump to the next instruction whose sectors per request differ from the "
                       "compared preset's")
                  : tr("Jump to the instruction that uses the least of the bytes it fetches"));
}

const GlobalAccess *CoalescingView::currentAccess() const
{
    return m_frame < frameCount() ? &m_accesses[std::size_t(m_frame)] : nullptr;
}

long long CoalescingView::runningRequests() const
{
    return frameCount() == 0 ? 0 : m_frame + 1;
}

long long CoalescingView::runningSectors() const
{
    long long s = 0;
    for (int i = 0; i <= m_frame && i < frameCount(); ++i)
        s += m_accesses[std::size_t(i)].sectorsPerRequest();
    return s;
}

double CoalescingView::runningEfficiency() const
{
    long long useful = 0;
    for (int i = 0; i <= m_frame && i < frameCount(); ++i)
        useful += m_accesses[std::size_t(i)].uniqueBytes;
    const long long sectors = runningSectors();
    return sectors == 0 ? 0.0 : double(useful) / double(sectors * kSectorBytes);
}

QString CoalescingView::summaryText() const
{
    const GlobalAccess *a = currentAccess();
    if (!a)
        return m_error.isEmpty() ? tr("No memory instruction to show.") : m_error;
    return tr("%1 sectors for %2 active lanes: %3 useful bytes of %4 fetched (%5).   So far: %6 requests, "
              "%7 sectors per request, %8 of fetched bytes used.")
        .arg(a->sectorsPerRequest())
        .arg(a->activeLanes)
        .arg(a->uniqueBytes)
        .arg(a->sectorsPerRequest() * kSectorBytes)
        .arg(percent(a->efficiency()))
        .arg(runningRequests())
        .arg(double(runningSectors()) / double(std::max(1LL, runningRequests())), 0, 'f', 2)
        .arg(percent(runningEfficiency()));
}

bool CoalescingView::isPlaying() const
{
    return m_timer->isActive();
}

void CoalescingView::play()
{
    if (m_frame + 1 >= frameCount())
        setFrame(0); // at the end, playing starts over
    m_timer->start();
    m_playButton->setText(tr("Pause"));
}

void CoalescingView::pause()
{
    m_timer->stop();
    m_playButton->setText(tr("Play"));
}

void CoalescingView::step()
{
    if (m_frame + 1 < frameCount())
        setFrame(m_frame + 1);
}

void CoalescingView::rewind()
{
    setFrame(0);
}

void CoalescingView::setFramesPerSecond(double fps)
{
    m_fps = std::clamp(fps, 0.1, 60.0);
    m_timer->setInterval(int(1000.0 / m_fps));
}

void CoalescingView::setFrame(int frame)
{
    m_frame = std::clamp(frame, 0, std::max(0, frameCount() - 1));
    m_canvas->update();
    updateMeasured();
    emit frameChanged(m_frame);
}

void CoalescingView::paintOne(QPainter &p, const QRectF &area, const GlobalAccess &a, const QString &header,
                              const QString &footer) const
{
    p.save();
    p.fillRect(area, palette().color(QPalette::Base));
    const QColor text = palette().color(QPalette::WindowText);
    p.setPen(text);
    const double margin = 10;
    const QRectF inner = area.adjusted(margin, margin, -margin, -margin);
    p.drawText(QRectF(inner.left(), inner.top(), inner.width(), 20), Qt::AlignLeft | Qt::AlignVCenter,
               header);

    // Lanes.
    const double laneW = inner.width() / kWarpSize;
    const QRectF lanesRow = lanesRowOf(area);
    const QFont labelFont = p.font();
    const std::optional<QFont> laneFont = laneNumberFont(labelFont, laneW);
    const bool numbered = laneFont.has_value();
    if (laneFont)
        p.setFont(*laneFont);
    for (int l = 0; l < kWarpSize; ++l) {
        const QRectF box(lanesRow.left() + l * laneW + 1, lanesRow.top(), laneW - 2, lanesRow.height());
        const bool active = a.lanes[std::size_t(l)].active;
        p.fillRect(box, active ? warpColor(a.warp) : wastedWordColor());
        if (numbered) {
            p.setPen(active ? QColor(Qt::white) : text);
            p.drawText(box, Qt::AlignCenter, QString::number(l));
        }
    }
    p.setFont(labelFont);

    // Memory strip: the touched sectors in address order, breaks where addresses jump.
    const std::vector<long long> &sectors = a.sectors;
    int gaps = 0;
    for (std::size_t i = 1; i < sectors.size(); ++i)
        gaps += sectors[i] != sectors[i - 1] + 1;
    const int slotCount = int(sectors.size()) * kWordsPerSector + gaps * kGapSlots;
    const double slotW = inner.width() / std::max(1, slotCount);
    const QRectF strip(inner.left(), lanesRow.bottom() + std::clamp(inner.height() * 0.3, 40.0, 140.0),
                       inner.width(), 26);
    std::vector<double> sectorLeft(sectors.size());
    double x = strip.left();
    p.setFont(font());
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.8);
    for (std::size_t i = 0; i < sectors.size(); ++i) {
        if (i > 0 && sectors[i] != sectors[i - 1] + 1) {
            p.setPen(text);
            p.setFont(small);
            p.drawText(QRectF(x, strip.top(), kGapSlots * slotW, strip.height()), Qt::AlignCenter,
                       QStringLiteral("…"));
            x += kGapSlots * slotW;
        }
        sectorLeft[i] = x;
        for (int w = 0; w < kWordsPerSector; ++w) {
            const long long address = sectors[i] * kSectorBytes + w * kFloatBytes;
            const bool used = std::any_of(a.lanes.begin(), a.lanes.end(), [&](const LaneAccess &l) {
                return l.active && l.address == address;
            });
            p.fillRect(QRectF(x + w * slotW, strip.top(), slotW, strip.height()),
                       used ? usedWordColor() : wastedWordColor());
        }
        p.setPen(QPen(text, 1));
        p.setBrush(Qt::NoBrush);
        p.drawRect(QRectF(x, strip.top(), kWordsPerSector * slotW, strip.height()));
        x += kWordsPerSector * slotW;
    }
    // Byte offsets under the first sector of each run (relative to the first sector).
    p.setFont(small);
    p.setPen(text);
    for (std::size_t i = 0; i < sectors.size(); ++i)
        if (i == 0 || sectors[i] != sectors[i - 1] + 1) {
            const long long offset = (sectors[i] - sectors[0]) * kSectorBytes;
            p.drawText(QRectF(sectorLeft[i], strip.bottom() + 2, 120, 16), Qt::AlignLeft | Qt::AlignTop,
                       i == 0 ? tr("byte %1").arg(sectors[i] * kSectorBytes) : tr("+%1 B").arg(offset));
        }

    // Lane -> word lines.
    paintLaneLines(p, a, sectorLeft, lanesRow, laneW, QPointF(slotW, strip.top()));

    // Legend and numbers.
    p.setFont(font());
    p.setPen(text);
    const QRectF bottom(inner.left(), strip.bottom() + 20, inner.width(),
                        inner.bottom() - strip.bottom() - 20);
    p.drawText(bottom, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, footer);
    p.restore();
}

void CoalescingView::paintFrame(QPainter &p, const QRectF &area, int frame) const
{
    if (frame < 0 || frame >= frameCount()) {
        p.save();
        p.fillRect(area, palette().color(QPalette::Base));
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(area.adjusted(10, 10, -10, -10), Qt::AlignCenter | Qt::TextWordWrap,
                   m_error.isEmpty() ? tr("No memory instruction to show.") : m_error);
        p.restore();
        return;
    }
    const GlobalAccess &a = m_accesses[std::size_t(frame)];
    const QString legend =
        tr("Orange: bytes a lane asked for; grey: fetched with the 32-byte sector but unused.");
    QString footer = legend + QLatin1Char('\n') +
                     (frame == m_frame ? summaryText()
                                       : tr("%1 sectors, %2 of fetched bytes used.")
                                             .arg(a.sectorsPerRequest())
                                             .arg(percent(a.efficiency())));
    if (!m_note.isEmpty())
        footer += QLatin1Char('\n') + m_note;
    const QString header = tr("Warp %1, instruction %2 of %3: %4")
                               .arg(a.warp)
                               .arg(frame + 1)
                               .arg(frameCount())
                               .arg(QString::fromStdString(a.label));
    if (!m_compare) {
        paintOne(p, area, a, header, footer);
        return;
    }
    // Compare mode: this configuration first (left, or on top in a narrow pane), the compared
    // one's matching instruction beside or below it.
    const auto [top, below] = compareHalves(area);
    paintOne(p, top, a, (m_caption.isEmpty() ? QString() : m_caption + QStringLiteral(": ")) + header,
             tr("%1 sectors per request, %2 of fetched bytes used.")
                 .arg(a.sectorsPerRequest())
                 .arg(percent(a.efficiency())));
    if (const GlobalAccess *c = compareAccess(frame)) {
        const bool differs = c->sectorsPerRequest() != a.sectorsPerRequest();
        paintOne(p, below, *c, tr("%1: %2").arg(m_compareCaption, QString::fromStdString(c->label)),
                 tr("%1 sectors per request, %2 of fetched bytes used%3\n%4")
                     .arg(c->sectorsPerRequest())
                     .arg(percent(c->efficiency()))
                     .arg(differs ? tr(" — differs from %1 (%2 sectors)")
                                        .arg(below.top() > top.top() ? tr("the preset above")
                                                                     : tr("the preset on the left"))
                                        .arg(a.sectorsPerRequest())
                          : below.top() > top.top() ? tr(" — the same as above")
                                                    : tr(" — the same as on the left"))
                     .arg(legend));
    } else {
        p.save();
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(below.adjusted(10, 10, -10, -10), Qt::AlignCenter | Qt::TextWordWrap,
                   tr("%1 issues no such instruction.").arg(m_compareCaption));
        p.restore();
    }
    p.setPen(QPen(palette().color(QPalette::Mid), 1));
    if (below.top() > top.top())
        p.drawLine(QPointF(area.left(), top.bottom()), QPointF(area.right(), top.bottom()));
    else
        p.drawLine(QPointF(top.right(), area.top()), QPointF(top.right(), area.bottom()));
}

QString CoalescingView::printTitle(int frame) const
{
    QString title = tr("Coalescing");
    if (!m_caption.isEmpty())
        title += QStringLiteral(": ") + m_caption;
    if (m_compare)
        title += QStringLiteral(" vs ") + m_compareCaption;
    if (frame >= 0 && frame < frameCount())
        title += tr(" — warp %1, instruction %2 of %3")
                     .arg(m_accesses[std::size_t(frame)].warp)
                     .arg(frame + 1)
                     .arg(frameCount());
    return title;
}

std::optional<QString> CoalescingView::exportTo(const QString &path)
{
    const int frame = m_frame;
    return exportPainted(path, kPrintSize, printTitle(frame), [&](QPainter &p, const QRectF &page) {
        paintFrame(p, paintPrintTitle(p, page, printTitle(frame)), frame);
    });
}

std::optional<QString> CoalescingView::exportFrames(const QString &folder, QSize size, const QString &suffix)
{
    if (frameCount() == 0)
        return m_error.isEmpty() ? tr("There is no frame to export.") : m_error;
    QDir dir(folder);
    if (!dir.exists() && !QDir().mkpath(folder))
        return tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(folder));
    const int saved = m_frame;
    std::optional<QString> error;
    for (int f = 0; f < frameCount() && !error; ++f) {
        m_frame = f; // running totals in the caption follow the frame
        const QString path =
            dir.filePath(QStringLiteral("frame_%1.%2").arg(f, 3, 10, QLatin1Char('0')).arg(suffix));
        error = exportPainted(path, size, printTitle(f), [&](QPainter &p, const QRectF &page) {
            paintFrame(p, paintPrintTitle(p, page, printTitle(f)), f);
        });
    }
    m_frame = saved;
    return error;
}

} // namespace gemmscope
