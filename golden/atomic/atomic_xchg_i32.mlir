entry @atomic_xchg_i32(%arg0: tile<ptr<i32>>, %arg1: tile<ptr<i32>>, %arg2: tile<ptr<i32>>, %arg3: tile<ptr<i32>>) {
  %0 = make_token : token
  %1, %2, %3 = get_tile_block_id : tile<i32>
  %4 = assume div_by<16>, %arg0 : tile<ptr<i32>>
  %5 = make_tensor_view %4, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %6 = make_partition_view %5 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %7, %8 = load_view_tko weak %6[%1] token = %0 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %9 = assume div_by<16>, %arg1 : tile<ptr<i32>>
  %10 = make_tensor_view %9, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %11 = make_partition_view %10 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %12, %13 = load_view_tko weak %11[%1] token = %8 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> tile<128xi32>, token
  %14 = reshape %arg2 : tile<ptr<i32>> -> tile<1xptr<i32>>
  %15 = broadcast %14 : tile<1xptr<i32>> -> tile<128xptr<i32>>
  %16 = offset %15, %12 : tile<128xptr<i32>>, tile<128xi32> -> tile<128xptr<i32>>
  %17 = constant <i32: 128> : tile<i32>
  %18 = muli %1, %17 : tile<i32>
  %19 = reshape %18 : tile<i32> -> tile<1xi32>
  %20 = broadcast %19 : tile<1xi32> -> tile<128xi32>
  %21 = iota : tile<128xi32>
  %22 = addi %20, %21 : tile<128xi32>
  %23 = constant <i32: 1000> : tile<128xi32>
  %24 = cmpi less_than %22, %23, signed : tile<128xi32> -> tile<128xi1>
  %25, %26 = atomic_rmw_tko acq_rel sys %16, xchg, %7, %24 token=%13 : tile<128xptr<i32>>, tile<128xi32>, tile<128xi1> -> tile<128xi32>, token
  %27 = assume div_by<16>, %arg3 : tile<ptr<i32>>
  %28 = make_tensor_view %27, shape = [1000], strides = [1] : tensor_view<1000xi32, strides=[1]>
  %29 = make_partition_view %28 : partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>
  %30 = store_view_tko weak %25, %29[%1] token = %26 : tile<128xi32>, partition_view<tile=(128), padding_value = zero, tensor_view<1000xi32, strides=[1]>>, tile<i32> -> token
  return
}
