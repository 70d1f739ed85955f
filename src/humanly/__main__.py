from humanly.cli import main

main()
