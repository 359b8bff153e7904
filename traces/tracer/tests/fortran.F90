! fortran.F90 - the tracer's Fortran test: the same calls through
! `use mpi_f08` (-DF08), `use mpi` (default) or mpif.h (-DF77), on 2 ranks:
! point-to-point with MPI_STATUS_IGNORE and statuses, non-blocking with
! MPI_STATUSES_IGNORE, requests completed by Waitany, Testany, Waitsome and
! Testsome (plain and persistent), matched probes, collectives (one with
! MPI_IN_PLACE), a non-blocking collective, a split and an idup'ed
! communicator, a window with fence and lock epochs, persistent requests,
! and MPI_Wtime; with -DLARGE (MPICH's mpi_f08) large-count forms too.
program fortran_test
#if defined(F08)
  use mpi_f08
#elif !defined(F77)
  use mpi
#endif
  implicit none
#if defined(F77)
  include 'mpif.h'
#endif
#if defined(F08)
  type(MPI_Comm) :: half
  type(MPI_Request) :: reqs(2), req, reqs4(4)
  type(MPI_Status) :: st, sts4(4)
  type(MPI_Message) :: msg
  type(MPI_Win) :: win
#else
  integer :: half, reqs(2), req, st(MPI_STATUS_SIZE), msg, win, reqs4(4), sts4(MPI_STATUS_SIZE, 4)
#endif
  integer :: rank, nranks, ierr, peer, i, n, done, idx4(4)
  logical :: flag
  integer(kind=MPI_ADDRESS_KIND) :: winsize, disp
#if defined(LARGE)
  integer(kind=MPI_COUNT_KIND) :: big
#endif
  double precision :: x(8), y(8), t0, buf(4), z(8)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  peer = mod(rank + 1, nranks)
  t0 = MPI_Wtime()
  x = rank

  ! blocking, with and without a status
  if (rank == 0) then
    call MPI_Send(x, 8, MPI_DOUBLE_PRECISION, peer, 1, MPI_COMM_WORLD, ierr)
    call MPI_Recv(y, 8, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, st, ierr)
  else
    call MPI_Recv(y, 8, MPI_DOUBLE_PRECISION, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Send(x, 4, MPI_DOUBLE_PRECISION, 0, 2, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Sendrecv(x, 2, MPI_DOUBLE_PRECISION, peer, 3, y, 2, MPI_DOUBLE_PRECISION, peer, 3, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  ! non-blocking
  call MPI_Irecv(y, 8, MPI_DOUBLE_PRECISION, peer, 4, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(x, 8, MPI_DOUBLE_PRECISION, peer, 4, MPI_COMM_WORLD, reqs(2), ierr)
  call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
  call MPI_Irecv(y, 3, MPI_DOUBLE_PRECISION, peer, 5, MPI_COMM_WORLD, reqs(1), ierr)
  call MPI_Isend(x, 3, MPI_DOUBLE_PRECISION, peer, 5, MPI_COMM_WORLD, reqs(2), ierr)
  ! completed by index; the program never reads the indices (MPICH
  ! 4.0.2's mpi_f08 returns them counted from 0): each Waitany completes
  ! one request, Testany one when its flag is set, the -some forms outcount
  call MPI_Waitany(2, reqs, i, st, ierr)
  call MPI_Waitany(2, reqs, i, st, ierr)
  do n = 1, 4
    call post4(9 + n)
    done = 0
    do while (done < 4)
      select case (n)
      case (1)
        call MPI_Waitany(4, reqs4, i, st, ierr)
        done = done + 1
      case (2)
        call MPI_Testany(4, reqs4, i, flag, st, ierr)
        if (flag) done = done + 1
      case (3)
        call MPI_Waitsome(4, reqs4, i, idx4, sts4, ierr)
        done = done + i
      case default
        call MPI_Testsome(4, reqs4, i, idx4, MPI_STATUSES_IGNORE, ierr)
        done = done + i
      end select
    end do
  end do
  ! persistent requests keep their handles when they complete
  call MPI_Recv_init(z, 5, MPI_DOUBLE_PRECISION, peer, 14, MPI_COMM_WORLD, reqs4(1), ierr)
  call MPI_Send_init(x, 5, MPI_DOUBLE_PRECISION, peer, 14, MPI_COMM_WORLD, reqs4(2), ierr)
  call MPI_Startall(2, reqs4, ierr)
  call MPI_Waitany(2, reqs4, i, st, ierr)
  call MPI_Waitany(2, reqs4, i, st, ierr)
  call MPI_Startall(2, reqs4, ierr)
  done = 0
  do while (done < 2)
    call MPI_Waitsome(2, reqs4, i, idx4, sts4, ierr)
    done = done + i
  end do
  call MPI_Request_free(reqs4(1), ierr)
  call MPI_Request_free(reqs4(2), ierr)
  ! matched probe
  call MPI_Send(x, 5, MPI_DOUBLE_PRECISION, peer, 6, MPI_COMM_WORLD, ierr)
  call MPI_Mprobe(peer, 6, MPI_COMM_WORLD, msg, st, ierr)
  call MPI_Mrecv(y, 5, MPI_DOUBLE_PRECISION, msg, MPI_STATUS_IGNORE, ierr)
  ! persistent
  call MPI_Send_init(x, 2, MPI_DOUBLE_PRECISION, peer, 7, MPI_COMM_WORLD, req, ierr)
  do i = 1, 2
    call MPI_Start(req, ierr)
    call MPI_Recv(y, 2, MPI_DOUBLE_PRECISION, peer, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  end do
  call MPI_Request_free(req, ierr)
  ! collectives
  call MPI_Bcast(x, 8, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(x, y, 8, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(MPI_IN_PLACE, y, 8, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Reduce(x, y, 4, MPI_DOUBLE_PRECISION, MPI_MAX, 1, MPI_COMM_WORLD, ierr)
  call MPI_Gather(x, 2, MPI_DOUBLE_PRECISION, y, 2, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Iallreduce(x, y, 8, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
#if defined(LARGE)
  ! MPI-4 large counts (MPICH's mpi_f08: mpi_send_f08ts_large_, ...)
  big = 4
  call MPI_Sendrecv(x, big, MPI_DOUBLE_PRECISION, peer, 8, y, big, MPI_DOUBLE_PRECISION, peer, 8, &
                    MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Allreduce(x, y, big, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
#endif
  ! a communicator of one's own
  call MPI_Comm_split(MPI_COMM_WORLD, 0, nranks - rank, half, ierr)
  call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, half, ierr)
  call MPI_Comm_free(half, ierr)
  call MPI_Comm_idup(MPI_COMM_WORLD, half, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call MPI_Allreduce(x, y, 1, MPI_DOUBLE_PRECISION, MPI_SUM, half, ierr)
  call MPI_Comm_free(half, ierr)
  ! one-sided: fence, then lock with flush
  winsize = 32
  call MPI_Win_create(buf, winsize, 8, MPI_INFO_NULL, MPI_COMM_WORLD, win, ierr)
  disp = 0
  call MPI_Win_fence(0, win, ierr)
  call MPI_Put(x, 4, MPI_DOUBLE_PRECISION, peer, disp, 4, MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_Win_fence(0, win, ierr)
  call MPI_Win_lock(MPI_LOCK_SHARED, peer, 0, win, ierr)
  call MPI_Get(y, 2, MPI_DOUBLE_PRECISION, peer, disp, 2, MPI_DOUBLE_PRECISION, win, ierr)
  call MPI_Win_flush(peer, win, ierr)
  call MPI_Accumulate(x, 2, MPI_DOUBLE_PRECISION, peer, disp, 2, MPI_DOUBLE_PRECISION, MPI_SUM, win, ierr)
  call MPI_Win_unlock(peer, win, ierr)
  call MPI_Win_free(win, ierr)
  n = int(MPI_Wtime() - t0)
  call MPI_Finalize(ierr)
contains
  ! two receives from the peer and two sends to it, tags tag and tag + 10
  subroutine post4(tag)
    integer, intent(in) :: tag
    call MPI_Irecv(y, 4, MPI_DOUBLE_PRECISION, peer, tag, MPI_COMM_WORLD, reqs4(1), ierr)
    call MPI_Irecv(z, 3, MPI_DOUBLE_PRECISION, peer, tag + 10, MPI_COMM_WORLD, reqs4(2), ierr)
    call MPI_Isend(x, 4, MPI_DOUBLE_PRECISION, peer, tag, MPI_COMM_WORLD, reqs4(3), ierr)
    call MPI_Isend(x, 3, MPI_DOUBLE_PRECISION, peer, tag + 10, MPI_COMM_WORLD, reqs4(4), ierr)
  end subroutine post4
end program fortran_test
