module broken

go 1.24
