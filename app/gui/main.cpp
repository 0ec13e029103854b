// Placeholder until the main window lands (issue 3).
#include <QApplication>
int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    return 0;
}
