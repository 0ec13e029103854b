#include "coalescing_view.h"

#include "plot_export.h"
#include "plot_theme.h"

#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QSpinBox>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

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

// "25%", "12.5%": a decimal only where the share is not a whole percent.
QString percent(double v)
{
    const double pct = 100.0 * v;
    return QString::number(pct, 'f', std::abs(pct - std::round(pct)) < 0.05 ? 0 : 1) + QLatin1Char('%');
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
    controls->addStretch();

    m_canvas = new CoalescingCanvas(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_canvas, 1);
    setFramesPerSecond(m_fps);
}

void CoalescingView::setShape(const KernelShape &shape, const AccessContext &context)
{
    m_shape = shape;
    m_context = context;
    m_warp = std::clamp(m_warp, 0, shape.warps() - 1);
    m_error = QString::fromStdString(accessContextError(shape, context));
    m_accesses = m_error.isEmpty() ? globalAccesses(shape, context, m_warp) : std::vector<GlobalAccess>{};
    syncControls();
    setFrame(0);
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
    emit frameChanged(m_frame);
}

void CoalescingView::paintFrame(QPainter &p, const QRectF &area, int frame) const
{
    p.save();
    p.fillRect(area, palette().color(QPalette::Base));
    const QColor text = palette().color(QPalette::WindowText);
    p.setPen(text);
    const double margin = 10;
    const QRectF inner = area.adjusted(margin, margin, -margin, -margin);
    if (frame < 0 || frame >= frameCount()) {
        p.drawText(inner, Qt::AlignCenter | Qt::TextWordWrap,
                   m_error.isEmpty() ? tr("No memory instruction to show.") : m_error);
        p.restore();
        return;
    }
    const GlobalAccess &a = m_accesses[std::size_t(frame)];
    p.drawText(QRectF(inner.left(), inner.top(), inner.width(), 20), Qt::AlignLeft | Qt::AlignVCenter,
               tr("Warp %1, instruction %2 of %3: %4")
                   .arg(a.warp)
                   .arg(frame + 1)
                   .arg(frameCount())
                   .arg(QString::fromStdString(a.label)));

    // Lanes.
    const double laneW = inner.width() / kWarpSize;
    const QRectF lanesRow(inner.left(), inner.top() + 28, inner.width(), 22);
    for (int l = 0; l < kWarpSize; ++l) {
        const QRectF box(lanesRow.left() + l * laneW + 1, lanesRow.top(), laneW - 2, lanesRow.height());
        const bool active = a.lanes[std::size_t(l)].active;
        p.fillRect(box, active ? warpColor(a.warp) : wastedWordColor());
        if (laneW >= 16) {
            p.setPen(active ? QColor(Qt::white) : text);
            p.drawText(box, Qt::AlignCenter, QString::number(l));
        }
    }

    // Memory strip: the touched sectors in address order, breaks where addresses jump.
    const std::vector<long long> &sectors = a.sectors;
    int gaps = 0;
    for (std::size_t i = 1; i < sectors.size(); ++i)
        gaps += sectors[i] != sectors[i - 1] + 1;
    const int slotCount = int(sectors.size()) * kWordsPerSector + gaps * kGapSlots;
    const double slotW = inner.width() / std::max(1, slotCount);
    const QRectF strip(inner.left(), lanesRow.bottom() + std::max(60.0, inner.height() * 0.35), inner.width(),
                       26);
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
    p.setRenderHint(QPainter::Antialiasing, true);
    for (int l = 0; l < kWarpSize; ++l) {
        const LaneAccess &lane = a.lanes[std::size_t(l)];
        if (!lane.active)
            continue;
        const auto it = std::lower_bound(sectors.begin(), sectors.end(), lane.address / kSectorBytes);
        const std::size_t si = std::size_t(it - sectors.begin());
        const int word = int((lane.address % kSectorBytes) / kFloatBytes);
        const QPointF from(lanesRow.left() + (l + 0.5) * laneW, lanesRow.bottom());
        const QPointF to(sectorLeft[si] + (word + 0.5) * slotW, strip.top());
        QColor c = warpColor(a.warp);
        c.setAlpha(150);
        p.setPen(QPen(c, 1));
        p.drawLine(from, to);
    }
    p.setRenderHint(QPainter::Antialiasing, false);

    // Legend and numbers.
    p.setFont(font());
    p.setPen(text);
    const QRectF bottom(inner.left(), strip.bottom() + 22, inner.width(),
                        inner.bottom() - strip.bottom() - 22);
    const QString legend =
        tr("Orange: bytes a lane asked for; grey: fetched with the 32-byte sector but unused.");
    p.drawText(bottom, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap,
               legend + QLatin1Char('\n') +
                   (frame == m_frame ? summaryText()
                                     : tr("%1 sectors, %2 of fetched bytes used.")
                                           .arg(a.sectorsPerRequest())
                                           .arg(percent(a.efficiency()))));
    p.restore();
}

QString CoalescingView::printTitle(int frame) const
{
    QString title = tr("Coalescing");
    if (!m_caption.isEmpty())
        title += QStringLiteral(": ") + m_caption;
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
