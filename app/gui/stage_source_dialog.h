// "New from stage…": every catalog stage with a source, by title, to copy into the editor.
#pragma once

#include <QDialog>

class QListWidget;

namespace gemmscope {

class StageSourceDialog : public QDialog {
    Q_OBJECT
public:
    explicit StageSourceDialog(QWidget *parent = nullptr);
    QString chosenKey() const; // the stage's catalog key; empty when none is chosen
    QListWidget *list() const { return m_list; }

private:
    QListWidget *m_list;
};

} // namespace gemmscope
