// The roofline chart's controls above the plot, its context menu, its title and the legend's key
// entries for what has no graph of its own (split from roofline_chart.cpp, which draws the roofs).
#include "chart_layout.h"
#include "help_text_color.h"
#include "roofline_chart.h"
#include "roofline_chart_style.h"
#include "roofline_marks.h"

#include <QCheckBox>
#include <QComboBox>
#include <QMenu>
#include <QSignalBlocker>
#include <algorithm>
#include <qcustomplot.h>

namespace gemmscope {

using roofline_scene::levelName;

void RooflineChart::fillContextMenu(QMenu &menu)
{
    addLegendToggle(menu);
    QAction *worklog = menu.addAction(m_worklogCheck->text());
    worklog->setCheckable(true);
    worklog->setChecked(m_showWorklog);
    connect(worklog, &QAction::toggled, this, &RooflineChart::setShowWorklogT4);
    if (m_modelCheck->isVisible() || m_showModel) {
        QAction *model = menu.addAction(tr("Model's intensity of every run"));
        model->setCheckable(true);
        model->setChecked(m_showModel);
        connect(model, &QAction::toggled, this, &RooflineChart::setShowModelIntensity);
    }
    for (MemoryLevel level : kLevels) {
        if (!levelAvailable(level))
            continue;
        QAction *toggle = menu.addAction(tr("%1 roof and intensities").arg(levelName(level)));
        toggle->setCheckable(true);
        toggle->setChecked(levelShown(level));
        connect(toggle, &QAction::toggled, this, [this, level](bool on) { setLevelShown(level, on); });
    }
    QAction *reset = menu.addAction(tr("Reset view"));
    connect(reset, &QAction::triggered, this, [this] { rebuild(); });
    QMenu *gpus = menu.addMenu(tr("GPU"));
    for (int i = 0; i < m_gpuCombo->count(); ++i) {
        QAction *gpu = gpus->addAction(m_gpuCombo->itemText(i));
        gpu->setCheckable(true);
        gpu->setChecked(m_gpuCombo->itemData(i).toString() == m_gpuKey);
        const QString key = m_gpuCombo->itemData(i).toString();
        connect(gpu, &QAction::triggered, this, [this, key] { setGpu(key); });
    }
}

void RooflineChart::syncControls()
{
    const QSignalBlocker blockGpu(m_gpuCombo);
    const QSignalBlocker blockWorklog(m_worklogCheck);
    m_gpuCombo->setCurrentIndex(std::max(0, m_gpuCombo->findData(m_gpuKey)));
    // "Auto" names what it resolved to, so the user sees which roofs are drawn.
    const GpuSpec *spec = m_gpuKey == kMeasuredKey ? datasheetSpec() : nullptr;
    const int autoIndex = m_gpuCombo->findData(kMeasuredKey);
    if (autoIndex >= 0)
        m_gpuCombo->setItemText(autoIndex, m_gpuKey == kMeasuredKey && spec
                                               ? tr("Auto (%1)").arg(upperKey(spec->key))
                                               : tr("Auto"));
    // Never narrower than its text: beside the counters' level switches it was squeezed to "Auto ("
    // (H200 ladder with counters, window 1600x1000). QComboBox keeps the minimum it
    // worked out for its first texts, so the minimum is set here.
    m_gpuCombo->setMinimumWidth(m_gpuCombo->sizeHint().width());
    m_worklogCheck->setChecked(m_showWorklog);
    {
        const QSignalBlocker blockModel(m_modelCheck);
        m_modelCheck->setChecked(m_showModel);
        m_modelCheck->setVisible(m_drawn.anyMeasured); // nothing to hide or show without counters
    }
    for (MemoryLevel level : kLevels) {
        QCheckBox *check = m_levelChecks[int(level)];
        const QSignalBlocker blockLevel(check);
        check->setChecked(levelShown(level));
        check->setVisible(levelAvailable(level));
    }
    // On the T4 the session's published rows are drawn already: the overlay would repeat them.
    const GpuSpec *chosen = datasheetSpec();
    const bool publishedShown =
        chosen && chosen->key == "t4" &&
        std::any_of(m_points.points().cbegin(), m_points.points().cend(),
                    [](const ChartPoint &p) { return p.kind == PointKind::WorklogT4 && !p.runId.isEmpty(); });
    m_worklogCheck->setEnabled(!publishedShown);
    m_worklogCheck->setToolTip(publishedShown
                                   ? tr("Off: the T4's published runs of this session are drawn already.")
                                   : tr(kWorklogCheckTip));
}

void RooflineChart::updateTitle()
{
    const GpuSpec *spec = m_drawn.spec;
    m_fullTitle = roofline_scene::chartTitle({spec ? QString::fromStdString(spec->name) : m_measuredLabel,
                                              m_drawn.marker.chosenDevices(), m_drawn.count,
                                              m_drawn.published, m_showWorklog && !m_drawn.published});
}

// Legend entries for what has no graph of its own: one entry for every run's disc (the colour is the
// stage, as in the runtime chart; the label is its worklog step), the ridge dots, the dotted join to
// the measured intensity, the selection ring.
void RooflineChart::addLegendKey()
{
    using roofline_scene::MarkRole;
    // What the last rebuild drew, not a scan of every point (the key is written again as it changes).
    const roofline_scene::KeyInputs in{m_drawn.anyPredicted, m_drawn.anyMeasured, m_drawn.anyL2,
                                       m_drawn.anyL1Shared,  m_showModel,         m_selectedGraph != nullptr};
    const QPen outline(QColor(0x40, 0x40, 0x40), 1.2);
    const QColor grey(0xa0, 0xa0, 0xa0);
    for (const roofline_scene::KeyEntry &entry : roofline_scene::keyEntries(in)) {
        const QCPScatterStyle style =
            entry.role == MarkRole::RunModel
                ? QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0x60, 0x60, 0x60), grey, 8)
            : entry.role == MarkRole::RunMeasured
                ? QCPScatterStyle(QCPScatterStyle::ssDiamond, outline, grey, 9)
            : entry.role == MarkRole::RunLevel
                ? QCPScatterStyle(levelShape(*entry.level), outline, grey, 8)
                : QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2), Qt::NoBrush, 11);
        addMarkerKey(m_plot, entry.text, style);
    }
}

void RooflineChart::placeCountersNote()
{
    const bool wanted = m_drawn.anyRun && !m_drawn.anyCounters;
    if (!wanted && m_countersNote) {
        m_plot->removeItem(m_countersNote);
        m_countersNote = nullptr;
        m_countersNoteText.clear();
    }
    if (!wanted || m_countersNote)
        return;
    m_countersNote = new QCPItemText(m_plot);
    m_countersNote->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_countersNote->position->setCoords(0.99, 0.99);
    m_countersNote->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_countersNoteText = QStringLiteral("measured intensity: hardware counters not available\n(%1)")
                             .arg(countersUnavailableReason(m_runs));
    m_countersNote->setText(m_countersNoteText);
    m_countersNote->setTextAlignment(Qt::AlignRight);
    m_countersNote->setColor(chartHintColor());
    m_countersNote->setFont(QFont(font().family(), 8));
}

void RooflineChart::refreshKey()
{
    // The key's entries follow the roofs' legend items: they are removed and written again.
    // The circle's entry stays (it comes and goes with the circle).
    for (int i = m_plot->legend->itemCount() - 1; i >= 0; --i)
        if (m_plot->legend->item(i) != m_liveKey && dynamic_cast<KeyLegendItem *>(m_plot->legend->item(i)))
            m_plot->legend->removeItem(i);
    addLegendKey();
    placeCountersNote();
}

} // namespace gemmscope
